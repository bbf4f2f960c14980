//! The built-in detectors' plans ([`crate::pattern::plan`]), generated from
//! the detectors by `cargo xtask generate` (which runs
//! `detect::tests::embedded_plans_are_fresh`); do not edit.

use std::borrow::Cow;

use regex_syntax::hir::{Hir, Look};

use crate::pattern::plan::{Find, Literals, Plan};

use super::Embedded;
use super::tree::{lit, rep, uni};

pub(super) static PLANS: &[Embedded] = &[
    Embedded {
        id: "aws_access_key_id",
        source: 0x0fe02b2502f3b96b,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), Hir::alternation(vec![lit(b"AKIA"), lit(b"ASIA"), lit(b"ABIA"), lit(b"ACCA")]), rep(16, Some(16), true, uni(&[('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}')])), Hir::look(Look::WordUnicode)]),
        tree: 0xea24e23d32053235,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x04ABIA\x04ACCA\x04AKIA\x04ASIA"), folded: false },
        },
    },
    Embedded {
        id: "aws_secret_access_key",
        source: 0xc790dfb697053b23,
        hir: || Hir::concat(vec![Hir::alternation(vec![Hir::concat(vec![Hir::look(Look::WordUnicode), uni(&[('\u{41}', '\u{41}'), ('\u{61}', '\u{61}')]), uni(&[('\u{57}', '\u{57}'), ('\u{77}', '\u{77}')]), uni(&[('\u{53}', '\u{53}'), ('\u{73}', '\u{73}'), ('\u{17f}', '\u{17f}')]), uni(&[('\u{9}', '\u{9}'), ('\u{20}', '\u{20}'), ('\u{22}', '\u{22}'), ('\u{27}', '\u{27}'), ('\u{2c}', '\u{2f}'), ('\u{3a}', '\u{3b}'), ('\u{3d}', '\u{3d}'), ('\u{5f}', '\u{5f}')])]), Hir::concat(vec![uni(&[('\u{53}', '\u{53}'), ('\u{73}', '\u{73}'), ('\u{17f}', '\u{17f}')]), uni(&[('\u{45}', '\u{45}'), ('\u{65}', '\u{65}')]), uni(&[('\u{43}', '\u{43}'), ('\u{63}', '\u{63}')]), uni(&[('\u{52}', '\u{52}'), ('\u{72}', '\u{72}')]), uni(&[('\u{45}', '\u{45}'), ('\u{65}', '\u{65}')]), uni(&[('\u{54}', '\u{54}'), ('\u{74}', '\u{74}')])])]), rep(0, Some(80), false, uni(&[('\u{0}', '\u{9}'), ('\u{b}', '\u{c}'), ('\u{e}', '\u{10ffff}')])), uni(&[('\u{0}', '\u{2a}'), ('\u{2c}', '\u{2c}'), ('\u{2e}', '\u{2e}'), ('\u{3a}', '\u{40}'), ('\u{5b}', '\u{5e}'), ('\u{60}', '\u{60}'), ('\u{7b}', '\u{10ffff}')]), rep(40, None, true, uni(&[('\u{2b}', '\u{2b}'), ('\u{2d}', '\u{2d}'), ('\u{2f}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{5f}', '\u{5f}'), ('\u{61}', '\u{7a}')])), rep(0, None, true, lit(b"="))]),
        tree: 0xb1448c59a2859952,
        plan: Plan {
            single_line: false,
            find: Find::Prefix { literals: Literals::embedded(b"\x04aws\x09\x04aws \x04aws\"\x04aws'\x04aws,\x04aws-\x04aws.\x04aws/\x04aws:\x04aws;\x04aws=\x04aws_\x05aw\xc5\xbf\x09\x05aw\xc5\xbf \x05aw\xc5\xbf\"\x05aw\xc5\xbf'\x05aw\xc5\xbf,\x05aw\xc5\xbf-\x05aw\xc5\xbf.\x05aw\xc5\xbf/\x05aw\xc5\xbf:\x05aw\xc5\xbf;\x05aw\xc5\xbf=\x05aw\xc5\xbf_\x06secret\x07\xc5\xbfecret"), folded: true },
        },
    },
    Embedded {
        id: "gcp_api_key",
        source: 0xeb7d2ff213c25e56,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"AIza"), rep(35, None, true, uni(&[('\u{2d}', '\u{2d}'), ('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{5f}', '\u{5f}'), ('\u{61}', '\u{7a}')]))]),
        tree: 0x7dba4546d415222c,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x04AIza"), folded: false },
        },
    },
    Embedded {
        id: "gcp_oauth_client_secret",
        source: 0x20c24774fb92df12,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"GOCSPX-"), rep(28, None, true, uni(&[('\u{2d}', '\u{2d}'), ('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{5f}', '\u{5f}'), ('\u{61}', '\u{7a}')]))]),
        tree: 0xe71151ca8ab605ce,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x07GOCSPX-"), folded: false },
        },
    },
    Embedded {
        id: "gcp_oauth_access_token",
        source: 0x2a632a6105fec49b,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"ya29."), rep(30, None, true, uni(&[('\u{2d}', '\u{2d}'), ('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{5f}', '\u{5f}'), ('\u{61}', '\u{7a}')]))]),
        tree: 0xd1fa450cf05457f6,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x05ya29."), folded: false },
        },
    },
    Embedded {
        id: "azure_storage_key",
        source: 0x5538e10340518a8e,
        hir: || Hir::concat(vec![Hir::alternation(vec![Hir::concat(vec![uni(&[('\u{41}', '\u{41}'), ('\u{61}', '\u{61}')]), uni(&[('\u{5a}', '\u{5a}'), ('\u{7a}', '\u{7a}')]), uni(&[('\u{55}', '\u{55}'), ('\u{75}', '\u{75}')]), uni(&[('\u{52}', '\u{52}'), ('\u{72}', '\u{72}')]), uni(&[('\u{45}', '\u{45}'), ('\u{65}', '\u{65}')])]), Hir::concat(vec![uni(&[('\u{53}', '\u{53}'), ('\u{73}', '\u{73}'), ('\u{17f}', '\u{17f}')]), uni(&[('\u{54}', '\u{54}'), ('\u{74}', '\u{74}')]), uni(&[('\u{4f}', '\u{4f}'), ('\u{6f}', '\u{6f}')]), uni(&[('\u{52}', '\u{52}'), ('\u{72}', '\u{72}')]), uni(&[('\u{41}', '\u{41}'), ('\u{61}', '\u{61}')]), uni(&[('\u{47}', '\u{47}'), ('\u{67}', '\u{67}')]), uni(&[('\u{45}', '\u{45}'), ('\u{65}', '\u{65}')])]), Hir::concat(vec![uni(&[('\u{41}', '\u{41}'), ('\u{61}', '\u{61}')]), uni(&[('\u{43}', '\u{43}'), ('\u{63}', '\u{63}')]), uni(&[('\u{43}', '\u{43}'), ('\u{63}', '\u{63}')]), uni(&[('\u{4f}', '\u{4f}'), ('\u{6f}', '\u{6f}')]), uni(&[('\u{55}', '\u{55}'), ('\u{75}', '\u{75}')]), uni(&[('\u{4e}', '\u{4e}'), ('\u{6e}', '\u{6e}')]), uni(&[('\u{54}', '\u{54}'), ('\u{74}', '\u{74}')]), rep(0, Some(1), true, uni(&[('\u{2d}', '\u{2d}'), ('\u{5f}', '\u{5f}')])), uni(&[('\u{4b}', '\u{4b}'), ('\u{6b}', '\u{6b}'), ('\u{212a}', '\u{212a}')]), uni(&[('\u{45}', '\u{45}'), ('\u{65}', '\u{65}')]), uni(&[('\u{59}', '\u{59}'), ('\u{79}', '\u{79}')])])]), rep(0, Some(80), false, uni(&[('\u{0}', '\u{9}'), ('\u{b}', '\u{c}'), ('\u{e}', '\u{10ffff}')])), uni(&[('\u{0}', '\u{2a}'), ('\u{2c}', '\u{2e}'), ('\u{3a}', '\u{40}'), ('\u{5b}', '\u{60}'), ('\u{7b}', '\u{10ffff}')]), rep(86, Some(86), true, uni(&[('\u{2b}', '\u{2b}'), ('\u{2f}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{61}', '\u{7a}')])), lit(b"==")]),
        tree: 0xed7c53c2ad963f86,
        plan: Plan {
            single_line: false,
            find: Find::Prefix { literals: Literals::embedded(b"\x0baccount-key\x0daccount-\xe2\x84\xaaey\x0baccount_key\x0daccount_\xe2\x84\xaaey\x0aaccountkey\x0caccount\xe2\x84\xaaey\x05azure\x07storage\x08\xc5\xbftorage"), folded: true },
        },
    },
    Embedded {
        id: "azure_client_secret",
        source: 0x8c86494f45dc05a0,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), rep(3, Some(3), true, uni(&[('\u{2d}', '\u{2e}'), ('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{5f}', '\u{5f}'), ('\u{61}', '\u{7a}'), ('\u{7e}', '\u{7e}')])), uni(&[('\u{30}', '\u{39}')]), lit(b"Q~"), rep(34, None, true, uni(&[('\u{2d}', '\u{2e}'), ('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{5f}', '\u{5f}'), ('\u{61}', '\u{7a}'), ('\u{7e}', '\u{7e}')]))]),
        tree: 0x512996e3bad205a0,
        plan: Plan {
            single_line: true,
            find: Find::Gate { literals: Literals::embedded(b"\x04-0q~\x04-1q~\x04-2q~\x04-3q~\x04-4q~\x04-5q~\x04-6q~\x04-7q~\x04-8q~\x04-9q~\x04.0q~\x04.1q~\x04.2q~\x04.3q~\x04.4q~\x04.5q~\x04.6q~\x04.7q~\x04.8q~\x04.9q~\x0400q~\x0401q~\x0402q~\x0403q~\x0404q~\x0405q~\x0406q~\x0407q~\x0408q~\x0409q~\x0410q~\x0411q~\x0412q~\x0413q~\x0414q~\x0415q~\x0416q~\x0417q~\x0418q~\x0419q~\x0420q~\x0421q~\x0422q~\x0423q~\x0424q~\x0425q~\x0426q~\x0427q~\x0428q~\x0429q~\x0430q~\x0431q~\x0432q~\x0433q~\x0434q~\x0435q~\x0436q~\x0437q~\x0438q~\x0439q~\x0440q~\x0441q~\x0442q~\x0443q~\x0444q~\x0445q~\x0446q~\x0447q~\x0448q~\x0449q~\x0450q~\x0451q~\x0452q~\x0453q~\x0454q~\x0455q~\x0456q~\x0457q~\x0458q~\x0459q~\x0460q~\x0461q~\x0462q~\x0463q~\x0464q~\x0465q~\x0466q~\x0467q~\x0468q~\x0469q~\x0470q~\x0471q~\x0472q~\x0473q~\x0474q~\x0475q~\x0476q~\x0477q~\x0478q~\x0479q~\x0480q~\x0481q~\x0482q~\x0483q~\x0484q~\x0485q~\x0486q~\x0487q~\x0488q~\x0489q~\x0490q~\x0491q~\x0492q~\x0493q~\x0494q~\x0495q~\x0496q~\x0497q~\x0498q~\x0499q~\x04_0q~\x04_1q~\x04_2q~\x04_3q~\x04_4q~\x04_5q~\x04_6q~\x04_7q~\x04_8q~\x04_9q~\x04a0q~\x04a1q~\x04a2q~\x04a3q~\x04a4q~\x04a5q~\x04a6q~\x04a7q~\x04a8q~\x04a9q~\x04b0q~\x04b1q~\x04b2q~\x04b3q~\x04b4q~\x04b5q~\x04b6q~\x04b7q~\x04b8q~\x04b9q~\x04c0q~\x04c1q~\x04c2q~\x04c3q~\x04c4q~\x04c5q~\x04c6q~\x04c7q~\x04c8q~\x04c9q~\x04d0q~\x04d1q~\x04d2q~\x04d3q~\x04d4q~\x04d5q~\x04d6q~\x04d7q~\x04d8q~\x04d9q~\x04e0q~\x04e1q~\x04e2q~\x04e3q~\x04e4q~\x04e5q~\x04e6q~\x04e7q~\x04e8q~\x04e9q~\x04f0q~\x04f1q~\x04f2q~\x04f3q~\x04f4q~\x04f5q~\x04f6q~\x04f7q~\x04f8q~\x04f9q~\x04g0q~\x04g1q~\x04g2q~\x04g3q~\x04g4q~\x04g5q~\x04g6q~\x04g7q~\x04g8q~\x04g9q~\x04h0q~\x04h1q~\x04h2q~\x04h3q~\x04h4q~\x04h5q~\x04h6q~\x04h7q~\x04h8q~\x04h9q~\x04i0q~\x04i1q~\x04i2q~\x04i3q~\x04i4q~\x04i5q~\x04i6q~\x04i7q~\x04i8q~\x04i9q~\x04j0q~\x04j1q~\x04j2q~\x04j3q~\x04j4q~\x04j5q~\x04j6q~\x04j7q~\x04j8q~\x04j9q~\x04k0q~\x04k1q~\x04k2q~\x04k3q~\x04k4q~\x04k5q~\x04k6q~\x04k7q~\x04k8q~\x04k9q~\x04l0q~\x04l1q~\x04l2q~\x04l3q~\x04l4q~\x04l5q~\x04l6q~\x04l7q~\x04l8q~\x04l9q~\x04m0q~\x04m1q~\x04m2q~\x04m3q~\x04m4q~\x04m5q~\x04m6q~\x04m7q~\x04m8q~\x04m9q~\x04n0q~\x04n1q~\x04n2q~\x04n3q~\x04n4q~\x04n5q~\x04n6q~\x04n7q~\x04n8q~\x04n9q~\x04o0q~\x04o1q~\x04o2q~\x04o3q~\x04o4q~\x04o5q~\x04o6q~\x04o7q~\x04o8q~\x04o9q~\x04p0q~\x04p1q~\x04p2q~\x04p3q~\x04p4q~\x04p5q~\x04p6q~\x04p7q~\x04p8q~\x04p9q~\x04q0q~\x04q1q~\x04q2q~\x04q3q~\x04q4q~\x04q5q~\x04q6q~\x04q7q~\x04q8q~\x04q9q~\x04r0q~\x04r1q~\x04r2q~\x04r3q~\x04r4q~\x04r5q~\x04r6q~\x04r7q~\x04r8q~\x04r9q~\x04s0q~\x04s1q~\x04s2q~\x04s3q~\x04s4q~\x04s5q~\x04s6q~\x04s7q~\x04s8q~\x04s9q~\x04t0q~\x04t1q~\x04t2q~\x04t3q~\x04t4q~\x04t5q~\x04t6q~\x04t7q~\x04t8q~\x04t9q~\x04u0q~\x04u1q~\x04u2q~\x04u3q~\x04u4q~\x04u5q~\x04u6q~\x04u7q~\x04u8q~\x04u9q~\x04v0q~\x04v1q~\x04v2q~\x04v3q~\x04v4q~\x04v5q~\x04v6q~\x04v7q~\x04v8q~\x04v9q~\x04w0q~\x04w1q~\x04w2q~\x04w3q~\x04w4q~\x04w5q~\x04w6q~\x04w7q~\x04w8q~\x04w9q~\x04x0q~\x04x1q~\x04x2q~\x04x3q~\x04x4q~\x04x5q~\x04x6q~\x04x7q~\x04x8q~\x04x9q~\x04y0q~\x04y1q~\x04y2q~\x04y3q~\x04y4q~\x04y5q~\x04y6q~\x04y7q~\x04y8q~\x04y9q~\x04z0q~\x04z1q~\x04z2q~\x04z3q~\x04z4q~\x04z5q~\x04z6q~\x04z7q~\x04z8q~\x04z9q~\x04~0q~\x04~1q~\x04~2q~\x04~3q~\x04~4q~\x04~5q~\x04~6q~\x04~7q~\x04~8q~\x04~9q~") },
        },
    },
    Embedded {
        id: "digitalocean_token",
        source: 0x04a378470d0616cc,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"do"), uni(&[('\u{6f}', '\u{70}'), ('\u{72}', '\u{72}')]), lit(b"_v1_"), rep(64, Some(64), true, uni(&[('\u{30}', '\u{39}'), ('\u{61}', '\u{66}')])), Hir::look(Look::WordUnicode)]),
        tree: 0x2b7727d99075e852,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x08doo_v1_0\x08doo_v1_1\x08doo_v1_2\x08doo_v1_3\x08doo_v1_4\x08doo_v1_5\x08doo_v1_6\x08doo_v1_7\x08doo_v1_8\x08doo_v1_9\x08doo_v1_a\x08doo_v1_b\x08doo_v1_c\x08doo_v1_d\x08doo_v1_e\x08doo_v1_f\x08dop_v1_0\x08dop_v1_1\x08dop_v1_2\x08dop_v1_3\x08dop_v1_4\x08dop_v1_5\x08dop_v1_6\x08dop_v1_7\x08dop_v1_8\x08dop_v1_9\x08dop_v1_a\x08dop_v1_b\x08dop_v1_c\x08dop_v1_d\x08dop_v1_e\x08dop_v1_f\x08dor_v1_0\x08dor_v1_1\x08dor_v1_2\x08dor_v1_3\x08dor_v1_4\x08dor_v1_5\x08dor_v1_6\x08dor_v1_7\x08dor_v1_8\x08dor_v1_9\x08dor_v1_a\x08dor_v1_b\x08dor_v1_c\x08dor_v1_d\x08dor_v1_e\x08dor_v1_f"), folded: false },
        },
    },
    Embedded {
        id: "github_pat",
        source: 0xae2b99974559e5fa,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"ghp_"), rep(36, Some(36), true, uni(&[('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{61}', '\u{7a}')])), Hir::look(Look::WordUnicode)]),
        tree: 0x3ef4d7ac356059f4,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x04ghp_"), folded: false },
        },
    },
    Embedded {
        id: "github_oauth_token",
        source: 0x52b010055af21143,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"gho_"), rep(36, Some(36), true, uni(&[('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{61}', '\u{7a}')])), Hir::look(Look::WordUnicode)]),
        tree: 0xf27a5066c8d26a35,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x04gho_"), folded: false },
        },
    },
    Embedded {
        id: "github_app_token",
        source: 0x8bd240686b6acbb2,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"gh"), uni(&[('\u{73}', '\u{73}'), ('\u{75}', '\u{75}')]), lit(b"_"), rep(36, Some(36), true, uni(&[('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{61}', '\u{7a}')])), Hir::look(Look::WordUnicode)]),
        tree: 0x4fe755035817d79c,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x04ghs_\x04ghu_"), folded: false },
        },
    },
    Embedded {
        id: "github_refresh_token",
        source: 0xc0dcfd03fc1796e8,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"ghr_"), rep(36, Some(36), true, uni(&[('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{61}', '\u{7a}')])), Hir::look(Look::WordUnicode)]),
        tree: 0x4eca9af1f0a257c6,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x04ghr_"), folded: false },
        },
    },
    Embedded {
        id: "github_fine_grained_pat",
        source: 0x38a7301c49bb3de2,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"github_pat_"), rep(22, Some(22), true, uni(&[('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{61}', '\u{7a}')])), lit(b"_"), rep(59, Some(59), true, uni(&[('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{61}', '\u{7a}')])), Hir::look(Look::WordUnicode)]),
        tree: 0x343aa5628298788d,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x0bgithub_pat_"), folded: false },
        },
    },
    Embedded {
        id: "gitlab_pat",
        source: 0x3c605b428d9dbd7d,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"glpat-"), rep(20, None, true, uni(&[('\u{2d}', '\u{2d}'), ('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{5f}', '\u{5f}'), ('\u{61}', '\u{7a}')])), rep(0, None, true, Hir::concat(vec![lit(b"."), rep(1, None, true, uni(&[('\u{2d}', '\u{2d}'), ('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{5f}', '\u{5f}'), ('\u{61}', '\u{7a}')]))]))]),
        tree: 0x0f2a043b88745f42,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x06glpat-"), folded: false },
        },
    },
    Embedded {
        id: "gitlab_runner_token",
        source: 0xa85fbdb5904a6142,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), Hir::alternation(vec![lit(b"glrt-"), lit(b"GR1348941")]), rep(20, None, true, uni(&[('\u{2d}', '\u{2d}'), ('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{5f}', '\u{5f}'), ('\u{61}', '\u{7a}')]))]),
        tree: 0xc48593e0242609bb,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x09GR1348941\x05glrt-"), folded: false },
        },
    },
    Embedded {
        id: "npm_token",
        source: 0x732ed0ee459f41fe,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"npm_"), rep(36, Some(36), true, uni(&[('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{61}', '\u{7a}')])), Hir::look(Look::WordUnicode)]),
        tree: 0xe3b0f5af3bcb8140,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x04npm_"), folded: false },
        },
    },
    Embedded {
        id: "pypi_token",
        source: 0xb6b1ed1584bcda66,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"pypi-AgE"), rep(50, None, true, uni(&[('\u{2d}', '\u{2d}'), ('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{5f}', '\u{5f}'), ('\u{61}', '\u{7a}')]))]),
        tree: 0x1dd9c8f051bb02ba,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x08pypi-AgE"), folded: false },
        },
    },
    Embedded {
        id: "slack_token",
        source: 0x435056b63a8786e4,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), Hir::alternation(vec![Hir::concat(vec![lit(b"xox"), uni(&[('\u{61}', '\u{62}'), ('\u{65}', '\u{65}'), ('\u{6f}', '\u{70}'), ('\u{72}', '\u{73}')])]), lit(b"xapp")]), lit(b"-"), rep(1, Some(5), true, Hir::concat(vec![rep(1, None, true, uni(&[('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{61}', '\u{7a}')])), lit(b"-")])), rep(6, None, true, uni(&[('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{61}', '\u{7a}')]))]),
        tree: 0xb23a8f0af624299c,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x05xapp-\x05xoxa-\x05xoxb-\x05xoxe-\x05xoxo-\x05xoxp-\x05xoxr-\x05xoxs-"), folded: false },
        },
    },
    Embedded {
        id: "slack_webhook_url",
        source: 0x3d7a243eb3c356ff,
        hir: || Hir::concat(vec![lit(b"https://hooks.slack.com/"), Hir::alternation(vec![lit(b"services"), lit(b"workflows"), lit(b"triggers")]), lit(b"/"), rep(20, None, true, uni(&[('\u{2d}', '\u{2d}'), ('\u{2f}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{5f}', '\u{5f}'), ('\u{61}', '\u{7a}')]))]),
        tree: 0xc4455a77c8310bb8,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"!https://hooks.slack.com/services/!https://hooks.slack.com/triggers/\"https://hooks.slack.com/workflows/"), folded: false },
        },
    },
    Embedded {
        id: "discord_bot_token",
        source: 0xe46f7785af045788,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), Hir::alternation(vec![Hir::concat(vec![lit(b"M"), uni(&[('\u{54}', '\u{54}'), ('\u{6a}', '\u{6a}'), ('\u{7a}', '\u{7a}')])]), Hir::concat(vec![lit(b"N"), uni(&[('\u{44}', '\u{44}'), ('\u{54}', '\u{54}'), ('\u{6a}', '\u{6a}'), ('\u{7a}', '\u{7a}')])]), Hir::concat(vec![lit(b"O"), uni(&[('\u{44}', '\u{44}'), ('\u{54}', '\u{54}')])])]), uni(&[('\u{41}', '\u{41}'), ('\u{45}', '\u{45}'), ('\u{49}', '\u{49}'), ('\u{4d}', '\u{4d}'), ('\u{51}', '\u{51}'), ('\u{55}', '\u{55}'), ('\u{59}', '\u{59}'), ('\u{63}', '\u{63}'), ('\u{67}', '\u{67}'), ('\u{6b}', '\u{6b}')]), uni(&[('\u{30}', '\u{35}'), ('\u{77}', '\u{7a}')]), rep(20, Some(24), true, uni(&[('\u{2d}', '\u{2d}'), ('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{5f}', '\u{5f}'), ('\u{61}', '\u{7a}')])), lit(b"."), rep(6, Some(6), true, uni(&[('\u{2d}', '\u{2d}'), ('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{5f}', '\u{5f}'), ('\u{61}', '\u{7a}')])), lit(b"."), rep(27, None, true, uni(&[('\u{2d}', '\u{2d}'), ('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{5f}', '\u{5f}'), ('\u{61}', '\u{7a}')]))]),
        tree: 0x0786e9467b3e046a,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x04MTA0\x04MTA1\x04MTA2\x04MTA3\x04MTA4\x04MTA5\x04MTAw\x04MTAx\x04MTAy\x04MTAz\x04MTE0\x04MTE1\x04MTE2\x04MTE3\x04MTE4\x04MTE5\x04MTEw\x04MTEx\x04MTEy\x04MTEz\x04MTI0\x04MTI1\x04MTI2\x04MTI3\x04MTI4\x04MTI5\x04MTIw\x04MTIx\x04MTIy\x04MTIz\x04MTM0\x04MTM1\x04MTM2\x04MTM3\x04MTM4\x04MTM5\x04MTMw\x04MTMx\x04MTMy\x04MTMz\x04MTQ0\x04MTQ1\x04MTQ2\x04MTQ3\x04MTQ4\x04MTQ5\x04MTQw\x04MTQx\x04MTQy\x04MTQz\x04MTU0\x04MTU1\x04MTU2\x04MTU3\x04MTU4\x04MTU5\x04MTUw\x04MTUx\x04MTUy\x04MTUz\x04MTY0\x04MTY1\x04MTY2\x04MTY3\x04MTY4\x04MTY5\x04MTYw\x04MTYx\x04MTYy\x04MTYz\x04MTc0\x04MTc1\x04MTc2\x04MTc3\x04MTc4\x04MTc5\x04MTcw\x04MTcx\x04MTcy\x04MTcz\x04MTg0\x04MTg1\x04MTg2\x04MTg3\x04MTg4\x04MTg5\x04MTgw\x04MTgx\x04MTgy\x04MTgz\x04MTk0\x04MTk1\x04MTk2\x04MTk3\x04MTk4\x04MTk5\x04MTkw\x04MTkx\x04MTky\x04MTkz\x04MjA0\x04MjA1\x04MjA2\x04MjA3\x04MjA4\x04MjA5\x04MjAw\x04MjAx\x04MjAy\x04MjAz\x04MjE0\x04MjE1\x04MjE2\x04MjE3\x04MjE4\x04MjE5\x04MjEw\x04MjEx\x04MjEy\x04MjEz\x04MjI0\x04MjI1\x04MjI2\x04MjI3\x04MjI4\x04MjI5\x04MjIw\x04MjIx\x04MjIy\x04MjIz\x04MjM0\x04MjM1\x04MjM2\x04MjM3\x04MjM4\x04MjM5\x04MjMw\x04MjMx\x04MjMy\x04MjMz\x04MjQ0\x04MjQ1\x04MjQ2\x04MjQ3\x04MjQ4\x04MjQ5\x04MjQw\x04MjQx\x04MjQy\x04MjQz\x04MjU0\x04MjU1\x04MjU2\x04MjU3\x04MjU4\x04MjU5\x04MjUw\x04MjUx\x04MjUy\x04MjUz\x04MjY0\x04MjY1\x04MjY2\x04MjY3\x04MjY4\x04MjY5\x04MjYw\x04MjYx\x04MjYy\x04MjYz\x04Mjc0\x04Mjc1\x04Mjc2\x04Mjc3\x04Mjc4\x04Mjc5\x04Mjcw\x04Mjcx\x04Mjcy\x04Mjcz\x04Mjg0\x04Mjg1\x04Mjg2\x04Mjg3\x04Mjg4\x04Mjg5\x04Mjgw\x04Mjgx\x04Mjgy\x04Mjgz\x04Mjk0\x04Mjk1\x04Mjk2\x04Mjk3\x04Mjk4\x04Mjk5\x04Mjkw\x04Mjkx\x04Mjky\x04Mjkz\x04MzA0\x04MzA1\x04MzA2\x04MzA3\x04MzA4\x04MzA5\x04MzAw\x04MzAx\x04MzAy\x04MzAz\x04MzE0\x04MzE1\x04MzE2\x04MzE3\x04MzE4\x04MzE5\x04MzEw\x04MzEx\x04MzEy\x04MzEz\x04MzI0\x04MzI1\x04MzI2\x04MzI3\x04MzI4\x04MzI5\x04MzIw\x04MzIx\x04MzIy\x04MzIz\x04MzM0\x04MzM1\x04MzM2\x04MzM3\x04MzM4\x04MzM5\x04MzMw\x04MzMx\x04MzMy\x04MzMz\x04MzQ0\x04MzQ1\x04MzQ2\x04MzQ3\x04MzQ4\x04MzQ5\x04MzQw\x04MzQx\x04MzQy\x04MzQz\x04MzU0\x04MzU1\x04MzU2\x04MzU3\x04MzU4\x04MzU5\x04MzUw\x04MzUx\x04MzUy\x04MzUz\x04MzY0\x04MzY1\x04MzY2\x04MzY3\x04MzY4\x04MzY5\x04MzYw\x04MzYx\x04MzYy\x04MzYz\x04Mzc0\x04Mzc1\x04Mzc2\x04Mzc3\x04Mzc4\x04Mzc5\x04Mzcw\x04Mzcx\x04Mzcy\x04Mzcz\x04Mzg0\x04Mzg1\x04Mzg2\x04Mzg3\x04Mzg4\x04Mzg5\x04Mzgw\x04Mzgx\x04Mzgy\x04Mzgz\x04Mzk0\x04Mzk1\x04Mzk2\x04Mzk3\x04Mzk4\x04Mzk5\x04Mzkw\x04Mzkx\x04Mzky\x04Mzkz\x04NDA0\x04NDA1\x04NDA2\x04NDA3\x04NDA4\x04NDA5\x04NDAw\x04NDAx\x04NDAy\x04NDAz\x04NDE0\x04NDE1\x04NDE2\x04NDE3\x04NDE4\x04NDE5\x04NDEw\x04NDEx\x04NDEy\x04NDEz\x04NDI0\x04NDI1\x04NDI2\x04NDI3\x04NDI4\x04NDI5\x04NDIw\x04NDIx\x04NDIy\x04NDIz\x04NDM0\x04NDM1\x04NDM2\x04NDM3\x04NDM4\x04NDM5\x04NDMw\x04NDMx\x04NDMy\x04NDMz\x04NDQ0\x04NDQ1\x04NDQ2\x04NDQ3\x04NDQ4\x04NDQ5\x04NDQw\x04NDQx\x04NDQy\x04NDQz\x04NDU0\x04NDU1\x04NDU2\x04NDU3\x04NDU4\x04NDU5\x04NDUw\x04NDUx\x04NDUy\x04NDUz\x04NDY0\x04NDY1\x04NDY2\x04NDY3\x04NDY4\x04NDY5\x04NDYw\x04NDYx\x04NDYy\x04NDYz\x04NDc0\x04NDc1\x04NDc2\x04NDc3\x04NDc4\x04NDc5\x04NDcw\x04NDcx\x04NDcy\x04NDcz\x04NDg0\x04NDg1\x04NDg2\x04NDg3\x04NDg4\x04NDg5\x04NDgw\x04NDgx\x04NDgy\x04NDgz\x04NDk0\x04NDk1\x04NDk2\x04NDk3\x04NDk4\x04NDk5\x04NDkw\x04NDkx\x04NDky\x04NDkz\x04NTA0\x04NTA1\x04NTA2\x04NTA3\x04NTA4\x04NTA5\x04NTAw\x04NTAx\x04NTAy\x04NTAz\x04NTE0\x04NTE1\x04NTE2\x04NTE3\x04NTE4\x04NTE5\x04NTEw\x04NTEx\x04NTEy\x04NTEz\x04NTI0\x04NTI1\x04NTI2\x04NTI3\x04NTI4\x04NTI5\x04NTIw\x04NTIx\x04NTIy\x04NTIz\x04NTM0\x04NTM1\x04NTM2\x04NTM3\x04NTM4\x04NTM5\x04NTMw\x04NTMx\x04NTMy\x04NTMz\x04NTQ0\x04NTQ1\x04NTQ2\x04NTQ3\x04NTQ4\x04NTQ5\x04NTQw\x04NTQx\x04NTQy\x04NTQz\x04NTU0\x04NTU1\x04NTU2\x04NTU3\x04NTU4\x04NTU5\x04NTUw\x04NTUx\x04NTUy\x04NTUz\x04NTY0\x04NTY1\x04NTY2\x04NTY3\x04NTY4\x04NTY5\x04NTYw\x04NTYx\x04NTYy\x04NTYz\x04NTc0\x04NTc1\x04NTc2\x04NTc3\x04NTc4\x04NTc5\x04NTcw\x04NTcx\x04NTcy\x04NTcz\x04NTg0\x04NTg1\x04NTg2\x04NTg3\x04NTg4\x04NTg5\x04NTgw\x04NTgx\x04NTgy\x04NTgz\x04NTk0\x04NTk1\x04NTk2\x04NTk3\x04NTk4\x04NTk5\x04NTkw\x04NTkx\x04NTky\x04NTkz\x04NjA0\x04NjA1\x04NjA2\x04NjA3\x04NjA4\x04NjA5\x04NjAw\x04NjAx\x04NjAy\x04NjAz\x04NjE0\x04NjE1\x04NjE2\x04NjE3\x04NjE4\x04NjE5\x04NjEw\x04NjEx\x04NjEy\x04NjEz\x04NjI0\x04NjI1\x04NjI2\x04NjI3\x04NjI4\x04NjI5\x04NjIw\x04NjIx\x04NjIy\x04NjIz\x04NjM0\x04NjM1\x04NjM2\x04NjM3\x04NjM4\x04NjM5\x04NjMw\x04NjMx\x04NjMy\x04NjMz\x04NjQ0\x04NjQ1\x04NjQ2\x04NjQ3\x04NjQ4\x04NjQ5\x04NjQw\x04NjQx\x04NjQy\x04NjQz\x04NjU0\x04NjU1\x04NjU2\x04NjU3\x04NjU4\x04NjU5\x04NjUw\x04NjUx\x04NjUy\x04NjUz\x04NjY0\x04NjY1\x04NjY2\x04NjY3\x04NjY4\x04NjY5\x04NjYw\x04NjYx\x04NjYy\x04NjYz\x04Njc0\x04Njc1\x04Njc2\x04Njc3\x04Njc4\x04Njc5\x04Njcw\x04Njcx\x04Njcy\x04Njcz\x04Njg0\x04Njg1\x04Njg2\x04Njg3\x04Njg4\x04Njg5\x04Njgw\x04Njgx\x04Njgy\x04Njgz\x04Njk0\x04Njk1\x04Njk2\x04Njk3\x04Njk4\x04Njk5\x04Njkw\x04Njkx\x04Njky\x04Njkz\x04NzA0\x04NzA1\x04NzA2\x04NzA3\x04NzA4\x04NzA5\x04NzAw\x04NzAx\x04NzAy\x04NzAz\x04NzE0\x04NzE1\x04NzE2\x04NzE3\x04NzE4\x04NzE5\x04NzEw\x04NzEx\x04NzEy\x04NzEz\x04NzI0\x04NzI1\x04NzI2\x04NzI3\x04NzI4\x04NzI5\x04NzIw\x04NzIx\x04NzIy\x04NzIz\x04NzM0\x04NzM1\x04NzM2\x04NzM3\x04NzM4\x04NzM5\x04NzMw\x04NzMx\x04NzMy\x04NzMz\x04NzQ0\x04NzQ1\x04NzQ2\x04NzQ3\x04NzQ4\x04NzQ5\x04NzQw\x04NzQx\x04NzQy\x04NzQz\x04NzU0\x04NzU1\x04NzU2\x04NzU3\x04NzU4\x04NzU5\x04NzUw\x04NzUx\x04NzUy\x04NzUz\x04NzY0\x04NzY1\x04NzY2\x04NzY3\x04NzY4\x04NzY5\x04NzYw\x04NzYx\x04NzYy\x04NzYz\x04Nzc0\x04Nzc1\x04Nzc2\x04Nzc3\x04Nzc4\x04Nzc5\x04Nzcw\x04Nzcx\x04Nzcy\x04Nzcz\x04Nzg0\x04Nzg1\x04Nzg2\x04Nzg3\x04Nzg4\x04Nzg5\x04Nzgw\x04Nzgx\x04Nzgy\x04Nzgz\x04Nzk0\x04Nzk1\x04Nzk2\x04Nzk3\x04Nzk4\x04Nzk5\x04Nzkw\x04Nzkx\x04Nzky\x04Nzkz\x04ODA0\x04ODA1\x04ODA2\x04ODA3\x04ODA4\x04ODA5\x04ODAw\x04ODAx\x04ODAy\x04ODAz\x04ODE0\x04ODE1\x04ODE2\x04ODE3\x04ODE4\x04ODE5\x04ODEw\x04ODEx\x04ODEy\x04ODEz\x04ODI0\x04ODI1\x04ODI2\x04ODI3\x04ODI4\x04ODI5\x04ODIw\x04ODIx\x04ODIy\x04ODIz\x04ODM0\x04ODM1\x04ODM2\x04ODM3\x04ODM4\x04ODM5\x04ODMw\x04ODMx\x04ODMy\x04ODMz\x04ODQ0\x04ODQ1\x04ODQ2\x04ODQ3\x04ODQ4\x04ODQ5\x04ODQw\x04ODQx\x04ODQy\x04ODQz\x04ODU0\x04ODU1\x04ODU2\x04ODU3\x04ODU4\x04ODU5\x04ODUw\x04ODUx\x04ODUy\x04ODUz\x04ODY0\x04ODY1\x04ODY2\x04ODY3\x04ODY4\x04ODY5\x04ODYw\x04ODYx\x04ODYy\x04ODYz\x04ODc0\x04ODc1\x04ODc2\x04ODc3\x04ODc4\x04ODc5\x04ODcw\x04ODcx\x04ODcy\x04ODcz\x04ODg0\x04ODg1\x04ODg2\x04ODg3\x04ODg4\x04ODg5\x04ODgw\x04ODgx\x04ODgy\x04ODgz\x04ODk0\x04ODk1\x04ODk2\x04ODk3\x04ODk4\x04ODk5\x04ODkw\x04ODkx\x04ODky\x04ODkz\x04OTA0\x04OTA1\x04OTA2\x04OTA3\x04OTA4\x04OTA5\x04OTAw\x04OTAx\x04OTAy\x04OTAz\x04OTE0\x04OTE1\x04OTE2\x04OTE3\x04OTE4\x04OTE5\x04OTEw\x04OTEx\x04OTEy\x04OTEz\x04OTI0\x04OTI1\x04OTI2\x04OTI3\x04OTI4\x04OTI5\x04OTIw\x04OTIx\x04OTIy\x04OTIz\x04OTM0\x04OTM1\x04OTM2\x04OTM3\x04OTM4\x04OTM5\x04OTMw\x04OTMx\x04OTMy\x04OTMz\x04OTQ0\x04OTQ1\x04OTQ2\x04OTQ3\x04OTQ4\x04OTQ5\x04OTQw\x04OTQx\x04OTQy\x04OTQz\x04OTU0\x04OTU1\x04OTU2\x04OTU3\x04OTU4\x04OTU5\x04OTUw\x04OTUx\x04OTUy\x04OTUz\x04OTY0\x04OTY1\x04OTY2\x04OTY3\x04OTY4\x04OTY5\x04OTYw\x04OTYx\x04OTYy\x04OTYz\x04OTc0\x04OTc1\x04OTc2\x04OTc3\x04OTc4\x04OTc5\x04OTcw\x04OTcx\x04OTcy\x04OTcz\x04OTg0\x04OTg1\x04OTg2\x04OTg3\x04OTg4\x04OTg5\x04OTgw\x04OTgx\x04OTgy\x04OTgz\x04OTk0\x04OTk1\x04OTk2\x04OTk3\x04OTk4\x04OTk5\x04OTkw\x04OTkx\x04OTky\x04OTkz"), folded: false },
        },
    },
    Embedded {
        id: "telegram_bot_token",
        source: 0x8844ef1c55f8d986,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), rep(8, Some(10), true, uni(&[('\u{30}', '\u{39}')])), lit(b":AA"), rep(33, None, true, uni(&[('\u{2d}', '\u{2d}'), ('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{5f}', '\u{5f}'), ('\u{61}', '\u{7a}')]))]),
        tree: 0x884d661d5aa86c83,
        plan: Plan {
            single_line: true,
            find: Find::Guard { literals: Literals::embedded(b"\x040:aa\x041:aa\x042:aa\x043:aa\x044:aa\x045:aa\x046:aa\x047:aa\x048:aa\x049:aa"), split: 2, lead: true, head: None, single_head: false },
        },
    },
    Embedded {
        id: "twilio_api_key",
        source: 0x4e5c97e6e0661e02,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"SK"), rep(32, Some(32), true, uni(&[('\u{30}', '\u{39}'), ('\u{61}', '\u{66}')])), Hir::look(Look::WordUnicode)]),
        tree: 0x2a2d90135a11e5f8,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x04SK00\x04SK01\x04SK02\x04SK03\x04SK04\x04SK05\x04SK06\x04SK07\x04SK08\x04SK09\x04SK0a\x04SK0b\x04SK0c\x04SK0d\x04SK0e\x04SK0f\x04SK10\x04SK11\x04SK12\x04SK13\x04SK14\x04SK15\x04SK16\x04SK17\x04SK18\x04SK19\x04SK1a\x04SK1b\x04SK1c\x04SK1d\x04SK1e\x04SK1f\x04SK20\x04SK21\x04SK22\x04SK23\x04SK24\x04SK25\x04SK26\x04SK27\x04SK28\x04SK29\x04SK2a\x04SK2b\x04SK2c\x04SK2d\x04SK2e\x04SK2f\x04SK30\x04SK31\x04SK32\x04SK33\x04SK34\x04SK35\x04SK36\x04SK37\x04SK38\x04SK39\x04SK3a\x04SK3b\x04SK3c\x04SK3d\x04SK3e\x04SK3f\x04SK40\x04SK41\x04SK42\x04SK43\x04SK44\x04SK45\x04SK46\x04SK47\x04SK48\x04SK49\x04SK4a\x04SK4b\x04SK4c\x04SK4d\x04SK4e\x04SK4f\x04SK50\x04SK51\x04SK52\x04SK53\x04SK54\x04SK55\x04SK56\x04SK57\x04SK58\x04SK59\x04SK5a\x04SK5b\x04SK5c\x04SK5d\x04SK5e\x04SK5f\x04SK60\x04SK61\x04SK62\x04SK63\x04SK64\x04SK65\x04SK66\x04SK67\x04SK68\x04SK69\x04SK6a\x04SK6b\x04SK6c\x04SK6d\x04SK6e\x04SK6f\x04SK70\x04SK71\x04SK72\x04SK73\x04SK74\x04SK75\x04SK76\x04SK77\x04SK78\x04SK79\x04SK7a\x04SK7b\x04SK7c\x04SK7d\x04SK7e\x04SK7f\x04SK80\x04SK81\x04SK82\x04SK83\x04SK84\x04SK85\x04SK86\x04SK87\x04SK88\x04SK89\x04SK8a\x04SK8b\x04SK8c\x04SK8d\x04SK8e\x04SK8f\x04SK90\x04SK91\x04SK92\x04SK93\x04SK94\x04SK95\x04SK96\x04SK97\x04SK98\x04SK99\x04SK9a\x04SK9b\x04SK9c\x04SK9d\x04SK9e\x04SK9f\x04SKa0\x04SKa1\x04SKa2\x04SKa3\x04SKa4\x04SKa5\x04SKa6\x04SKa7\x04SKa8\x04SKa9\x04SKaa\x04SKab\x04SKac\x04SKad\x04SKae\x04SKaf\x04SKb0\x04SKb1\x04SKb2\x04SKb3\x04SKb4\x04SKb5\x04SKb6\x04SKb7\x04SKb8\x04SKb9\x04SKba\x04SKbb\x04SKbc\x04SKbd\x04SKbe\x04SKbf\x04SKc0\x04SKc1\x04SKc2\x04SKc3\x04SKc4\x04SKc5\x04SKc6\x04SKc7\x04SKc8\x04SKc9\x04SKca\x04SKcb\x04SKcc\x04SKcd\x04SKce\x04SKcf\x04SKd0\x04SKd1\x04SKd2\x04SKd3\x04SKd4\x04SKd5\x04SKd6\x04SKd7\x04SKd8\x04SKd9\x04SKda\x04SKdb\x04SKdc\x04SKdd\x04SKde\x04SKdf\x04SKe0\x04SKe1\x04SKe2\x04SKe3\x04SKe4\x04SKe5\x04SKe6\x04SKe7\x04SKe8\x04SKe9\x04SKea\x04SKeb\x04SKec\x04SKed\x04SKee\x04SKef\x04SKf0\x04SKf1\x04SKf2\x04SKf3\x04SKf4\x04SKf5\x04SKf6\x04SKf7\x04SKf8\x04SKf9\x04SKfa\x04SKfb\x04SKfc\x04SKfd\x04SKfe\x04SKff"), folded: false },
        },
    },
    Embedded {
        id: "sendgrid_api_key",
        source: 0x43a069fba64285bc,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"SG."), rep(22, Some(22), true, uni(&[('\u{2d}', '\u{2d}'), ('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{5f}', '\u{5f}'), ('\u{61}', '\u{7a}')])), lit(b"."), rep(43, None, true, uni(&[('\u{2d}', '\u{2d}'), ('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{5f}', '\u{5f}'), ('\u{61}', '\u{7a}')]))]),
        tree: 0x97f258327bcbaa71,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x04SG.-\x04SG.0\x04SG.1\x04SG.2\x04SG.3\x04SG.4\x04SG.5\x04SG.6\x04SG.7\x04SG.8\x04SG.9\x04SG.A\x04SG.B\x04SG.C\x04SG.D\x04SG.E\x04SG.F\x04SG.G\x04SG.H\x04SG.I\x04SG.J\x04SG.K\x04SG.L\x04SG.M\x04SG.N\x04SG.O\x04SG.P\x04SG.Q\x04SG.R\x04SG.S\x04SG.T\x04SG.U\x04SG.V\x04SG.W\x04SG.X\x04SG.Y\x04SG.Z\x04SG._\x04SG.a\x04SG.b\x04SG.c\x04SG.d\x04SG.e\x04SG.f\x04SG.g\x04SG.h\x04SG.i\x04SG.j\x04SG.k\x04SG.l\x04SG.m\x04SG.n\x04SG.o\x04SG.p\x04SG.q\x04SG.r\x04SG.s\x04SG.t\x04SG.u\x04SG.v\x04SG.w\x04SG.x\x04SG.y\x04SG.z"), folded: false },
        },
    },
    Embedded {
        id: "mailgun_api_key",
        source: 0x8e1c9681125d9146,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"key-"), rep(32, Some(32), true, uni(&[('\u{30}', '\u{39}'), ('\u{61}', '\u{66}')])), Hir::look(Look::WordUnicode)]),
        tree: 0x411e4cee3911f006,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x05key-0\x05key-1\x05key-2\x05key-3\x05key-4\x05key-5\x05key-6\x05key-7\x05key-8\x05key-9\x05key-a\x05key-b\x05key-c\x05key-d\x05key-e\x05key-f"), folded: false },
        },
    },
    Embedded {
        id: "mailchimp_api_key",
        source: 0xdd76822d57179236,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), rep(32, Some(32), true, uni(&[('\u{30}', '\u{39}'), ('\u{61}', '\u{66}')])), lit(b"-us"), rep(1, Some(2), true, uni(&[('\u{30}', '\u{39}')])), Hir::look(Look::WordUnicode)]),
        tree: 0x035835dfa22cad9e,
        plan: Plan {
            single_line: true,
            find: Find::Gate { literals: Literals::embedded(b"\x04-us0\x04-us1\x04-us2\x04-us3\x04-us4\x04-us5\x04-us6\x04-us7\x04-us8\x04-us9") },
        },
    },
    Embedded {
        id: "stripe_secret_key",
        source: 0xfe6f245248c9a7fa,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"sk_live_"), rep(20, Some(247), true, uni(&[('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{61}', '\u{7a}')])), Hir::look(Look::WordUnicode)]),
        tree: 0x0d9c6b06b5e40659,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x08sk_live_"), folded: false },
        },
    },
    Embedded {
        id: "stripe_restricted_key",
        source: 0x2d974f034028fca5,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"rk_live_"), rep(20, Some(247), true, uni(&[('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{61}', '\u{7a}')])), Hir::look(Look::WordUnicode)]),
        tree: 0xbc802e4d303b8176,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x08rk_live_"), folded: false },
        },
    },
    Embedded {
        id: "stripe_webhook_secret",
        source: 0x056b98f1da24c912,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"whsec_"), rep(32, None, true, uni(&[('\u{2b}', '\u{2b}'), ('\u{2f}', '\u{39}'), ('\u{3d}', '\u{3d}'), ('\u{41}', '\u{5a}'), ('\u{61}', '\u{7a}')]))]),
        tree: 0x59c765ffaa683936,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x06whsec_"), folded: false },
        },
    },
    Embedded {
        id: "shopify_token",
        source: 0x7741fe1f57102368,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"shp"), Hir::alternation(vec![lit(b"at"), lit(b"ca"), lit(b"pa"), lit(b"ss")]), lit(b"_"), rep(32, Some(32), true, uni(&[('\u{30}', '\u{39}'), ('\u{41}', '\u{46}'), ('\u{61}', '\u{66}')])), Hir::look(Look::WordUnicode)]),
        tree: 0xfb2a9630155af766,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x06shpat_\x06shpca_\x06shppa_\x06shpss_"), folded: false },
        },
    },
    Embedded {
        id: "openai_api_key",
        source: 0xa310d569432cb93b,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"sk-"), Hir::alternation(vec![Hir::concat(vec![rep(0, Some(1), true, Hir::concat(vec![Hir::alternation(vec![lit(b"proj"), lit(b"svcacct"), lit(b"admin")]), lit(b"-")])), rep(0, None, true, uni(&[('\u{2d}', '\u{2d}'), ('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{5f}', '\u{5f}'), ('\u{61}', '\u{7a}')])), lit(b"T3BlbkFJ"), rep(1, None, true, uni(&[('\u{2d}', '\u{2d}'), ('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{5f}', '\u{5f}'), ('\u{61}', '\u{7a}')]))]), Hir::concat(vec![Hir::alternation(vec![lit(b"proj"), lit(b"svcacct"), lit(b"admin")]), lit(b"-"), rep(40, None, true, uni(&[('\u{2d}', '\u{2d}'), ('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{5f}', '\u{5f}'), ('\u{61}', '\u{7a}')]))])])]),
        tree: 0x7387b25ecf99dfed,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x03sk-"), folded: true },
        },
    },
    Embedded {
        id: "anthropic_api_key",
        source: 0xac1769cc7b5f329f,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"sk-ant-"), Hir::alternation(vec![lit(b"api"), lit(b"admin"), lit(b"oat"), lit(b"ort")]), rep(2, Some(2), true, uni(&[('\u{30}', '\u{39}')])), lit(b"-"), rep(80, None, true, uni(&[('\u{2d}', '\u{2d}'), ('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{5f}', '\u{5f}'), ('\u{61}', '\u{7a}')]))]),
        tree: 0x7d583f708870075b,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x0csk-ant-admin\x0ask-ant-api\x0ask-ant-oat\x0ask-ant-ort"), folded: false },
        },
    },
    Embedded {
        id: "huggingface_token",
        source: 0x13eee0c9cfe8d349,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), Hir::alternation(vec![lit(b"hf_"), lit(b"api_org_")]), rep(34, Some(34), true, uni(&[('\u{41}', '\u{5a}'), ('\u{61}', '\u{7a}')])), Hir::look(Look::WordUnicode)]),
        tree: 0x2874a14724a269a0,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x09api_org_A\x09api_org_B\x09api_org_C\x09api_org_D\x09api_org_E\x09api_org_F\x09api_org_G\x09api_org_H\x09api_org_I\x09api_org_J\x09api_org_K\x09api_org_L\x09api_org_M\x09api_org_N\x09api_org_O\x09api_org_P\x09api_org_Q\x09api_org_R\x09api_org_S\x09api_org_T\x09api_org_U\x09api_org_V\x09api_org_W\x09api_org_X\x09api_org_Y\x09api_org_Z\x09api_org_a\x09api_org_b\x09api_org_c\x09api_org_d\x09api_org_e\x09api_org_f\x09api_org_g\x09api_org_h\x09api_org_i\x09api_org_j\x09api_org_k\x09api_org_l\x09api_org_m\x09api_org_n\x09api_org_o\x09api_org_p\x09api_org_q\x09api_org_r\x09api_org_s\x09api_org_t\x09api_org_u\x09api_org_v\x09api_org_w\x09api_org_x\x09api_org_y\x09api_org_z\x04hf_A\x04hf_B\x04hf_C\x04hf_D\x04hf_E\x04hf_F\x04hf_G\x04hf_H\x04hf_I\x04hf_J\x04hf_K\x04hf_L\x04hf_M\x04hf_N\x04hf_O\x04hf_P\x04hf_Q\x04hf_R\x04hf_S\x04hf_T\x04hf_U\x04hf_V\x04hf_W\x04hf_X\x04hf_Y\x04hf_Z\x04hf_a\x04hf_b\x04hf_c\x04hf_d\x04hf_e\x04hf_f\x04hf_g\x04hf_h\x04hf_i\x04hf_j\x04hf_k\x04hf_l\x04hf_m\x04hf_n\x04hf_o\x04hf_p\x04hf_q\x04hf_r\x04hf_s\x04hf_t\x04hf_u\x04hf_v\x04hf_w\x04hf_x\x04hf_y\x04hf_z"), folded: false },
        },
    },
    Embedded {
        id: "groq_api_key",
        source: 0xa3858e7e113023d6,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"gsk_"), rep(52, Some(52), true, uni(&[('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{61}', '\u{7a}')])), Hir::look(Look::WordUnicode)]),
        tree: 0x22f503c8144aae92,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x04gsk_"), folded: false },
        },
    },
    Embedded {
        id: "vault_token",
        source: 0x7742ce868f6f3334,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"hv"), uni(&[('\u{62}', '\u{62}'), ('\u{72}', '\u{73}')]), lit(b"."), rep(24, None, true, uni(&[('\u{2d}', '\u{2d}'), ('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{5f}', '\u{5f}'), ('\u{61}', '\u{7a}')]))]),
        tree: 0xaf19df3806ea6603,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x04hvb.\x04hvr.\x04hvs."), folded: false },
        },
    },
    Embedded {
        id: "databricks_token",
        source: 0x12019573f69bd784,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"dapi"), rep(32, Some(32), true, uni(&[('\u{30}', '\u{39}'), ('\u{61}', '\u{66}')])), rep(0, Some(1), true, Hir::concat(vec![lit(b"-"), uni(&[('\u{30}', '\u{39}')])])), Hir::look(Look::WordUnicode)]),
        tree: 0xa28114bd8996f403,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x05dapi0\x05dapi1\x05dapi2\x05dapi3\x05dapi4\x05dapi5\x05dapi6\x05dapi7\x05dapi8\x05dapi9\x05dapia\x05dapib\x05dapic\x05dapid\x05dapie\x05dapif"), folded: false },
        },
    },
    Embedded {
        id: "pulumi_access_token",
        source: 0x1256618cfcdcd447,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"pul-"), rep(40, Some(40), true, uni(&[('\u{30}', '\u{39}'), ('\u{61}', '\u{66}')])), Hir::look(Look::WordUnicode)]),
        tree: 0x407de436dfb56b08,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x05pul-0\x05pul-1\x05pul-2\x05pul-3\x05pul-4\x05pul-5\x05pul-6\x05pul-7\x05pul-8\x05pul-9\x05pul-a\x05pul-b\x05pul-c\x05pul-d\x05pul-e\x05pul-f"), folded: false },
        },
    },
    Embedded {
        id: "doppler_token",
        source: 0x90107dcb10242d36,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"dp."), Hir::alternation(vec![lit(b"pt"), lit(b"st"), lit(b"sa"), lit(b"ct"), lit(b"scim"), lit(b"audit")]), lit(b"."), rep(40, Some(44), true, uni(&[('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{61}', '\u{7a}')])), Hir::look(Look::WordUnicode)]),
        tree: 0x1db2f915821987bc,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x09dp.audit.\x06dp.ct.\x06dp.pt.\x06dp.sa.\x08dp.scim.\x06dp.st."), folded: false },
        },
    },
    Embedded {
        id: "postman_api_key",
        source: 0x1e236b203a55a0bb,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"PMAK-"), rep(24, Some(24), true, uni(&[('\u{30}', '\u{39}'), ('\u{61}', '\u{66}')])), lit(b"-"), rep(34, Some(34), true, uni(&[('\u{30}', '\u{39}'), ('\u{61}', '\u{66}')])), Hir::look(Look::WordUnicode)]),
        tree: 0xbcb8b785031854af,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x06PMAK-0\x06PMAK-1\x06PMAK-2\x06PMAK-3\x06PMAK-4\x06PMAK-5\x06PMAK-6\x06PMAK-7\x06PMAK-8\x06PMAK-9\x06PMAK-a\x06PMAK-b\x06PMAK-c\x06PMAK-d\x06PMAK-e\x06PMAK-f"), folded: false },
        },
    },
    Embedded {
        id: "grafana_token",
        source: 0x37dc9dfc3e5a3138,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), Hir::alternation(vec![Hir::concat(vec![lit(b"glsa_"), rep(32, Some(32), true, uni(&[('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{61}', '\u{7a}')])), lit(b"_"), rep(8, Some(8), true, uni(&[('\u{30}', '\u{39}'), ('\u{41}', '\u{46}'), ('\u{61}', '\u{66}')])), Hir::look(Look::WordUnicode)]), Hir::concat(vec![lit(b"glc_"), rep(32, None, true, uni(&[('\u{2b}', '\u{2b}'), ('\u{2f}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{61}', '\u{7a}')])), rep(0, Some(2), true, lit(b"="))])])]),
        tree: 0xcdeaaa808a1e9f66,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x04glc_\x05glsa_"), folded: false },
        },
    },
    Embedded {
        id: "new_relic_key",
        source: 0xce5d64a1a0eae3f7,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"NRAK-"), rep(27, Some(27), true, uni(&[('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}')])), Hir::look(Look::WordUnicode)]),
        tree: 0x7fa9f04628ef7ba6,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x05NRAK-"), folded: false },
        },
    },
    Embedded {
        id: "linear_api_key",
        source: 0x46d5869ada161754,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"lin_api_"), rep(40, Some(40), true, uni(&[('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{61}', '\u{7a}')])), Hir::look(Look::WordUnicode)]),
        tree: 0xc9e64a91d307838d,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x08lin_api_"), folded: false },
        },
    },
    Embedded {
        id: "sentry_token",
        source: 0x3a5b0c7a4891c408,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"sntry"), uni(&[('\u{73}', '\u{73}'), ('\u{75}', '\u{75}')]), lit(b"_"), rep(40, None, true, uni(&[('\u{2b}', '\u{2b}'), ('\u{2f}', '\u{39}'), ('\u{3d}', '\u{3d}'), ('\u{41}', '\u{5a}'), ('\u{5f}', '\u{5f}'), ('\u{61}', '\u{7a}')]))]),
        tree: 0xd5dd0c07568241c4,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x07sntrys_\x07sntryu_"), folded: false },
        },
    },
    Embedded {
        id: "onepassword_token",
        source: 0xc198a41aaeeb565b,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"ops_eyJ"), rep(250, None, true, uni(&[('\u{2b}', '\u{2b}'), ('\u{2f}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{61}', '\u{7a}')])), rep(0, Some(3), true, lit(b"="))]),
        tree: 0xa31749ed12afc2f7,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x07ops_eyJ"), folded: false },
        },
    },
    Embedded {
        id: "alibaba_access_key_id",
        source: 0x9acfccbea453f990,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"LTAI"), rep(12, Some(20), true, uni(&[('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{61}', '\u{7a}')])), Hir::look(Look::WordUnicode)]),
        tree: 0x5928543aa35e14bc,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x04LTAI"), folded: false },
        },
    },
    Embedded {
        id: "atlassian_api_token",
        source: 0x3a623fe037734bec,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"ATATT3"), rep(186, None, true, uni(&[('\u{2d}', '\u{2d}'), ('\u{30}', '\u{39}'), ('\u{3d}', '\u{3d}'), ('\u{41}', '\u{5a}'), ('\u{5f}', '\u{5f}'), ('\u{61}', '\u{7a}')]))]),
        tree: 0x8b81625ad5523464,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x06ATATT3"), folded: false },
        },
    },
    Embedded {
        id: "clojars_token",
        source: 0x4d8351c9284f2a42,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"CLOJARS_"), rep(60, None, true, uni(&[('\u{30}', '\u{39}'), ('\u{61}', '\u{7a}')]))]),
        tree: 0xb24ce1aba82b901d,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x08CLOJARS_"), folded: false },
        },
    },
    Embedded {
        id: "dynatrace_token",
        source: 0xdc5a6cd3dfd67d4b,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"dt0c01."), rep(24, Some(24), true, uni(&[('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}')])), lit(b"."), rep(64, Some(64), true, uni(&[('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}')])), Hir::look(Look::WordUnicode)]),
        tree: 0xe436d7fdb1c03750,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x07dt0c01."), folded: false },
        },
    },
    Embedded {
        id: "easypost_api_key",
        source: 0x3552c3d4dd79d71b,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"EZAK"), rep(54, None, true, uni(&[('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{61}', '\u{7a}')]))]),
        tree: 0x10b6f6356edffe21,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x04EZAK"), folded: false },
        },
    },
    Embedded {
        id: "flyio_token",
        source: 0xd50362cca8d9858d,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), Hir::alternation(vec![Hir::concat(vec![lit(b"fo1_"), rep(43, Some(43), true, uni(&[('\u{2d}', '\u{2d}'), ('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{5f}', '\u{5f}'), ('\u{61}', '\u{7a}')]))]), Hir::concat(vec![lit(b"fm"), uni(&[('\u{31}', '\u{32}')]), rep(0, Some(1), true, uni(&[('\u{61}', '\u{61}'), ('\u{72}', '\u{72}')])), lit(b"_"), rep(100, None, true, uni(&[('\u{2b}', '\u{2b}'), ('\u{2f}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{61}', '\u{7a}')])), rep(0, Some(3), true, lit(b"="))])])]),
        tree: 0x2744835267e11a99,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x04fm1_\x05fm1a_\x05fm1r_\x04fm2_\x05fm2a_\x05fm2r_\x04fo1_"), folded: false },
        },
    },
    Embedded {
        id: "gitlab_token",
        source: 0xc7c7794fcc56f5df,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"gl"), Hir::alternation(vec![lit(b"dt"), lit(b"ft"), lit(b"soat"), lit(b"cbt"), lit(b"ptt"), lit(b"imt"), lit(b"agent"), lit(b"oas")]), lit(b"-"), rep(20, None, true, uni(&[('\u{2d}', '\u{2e}'), ('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{5f}', '\u{5f}'), ('\u{61}', '\u{7a}')]))]),
        tree: 0x366ab09e4d74b859,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x08glagent-\x06glcbt-\x05gldt-\x05glft-\x06glimt-\x06gloas-\x06glptt-\x07glsoat-"), folded: false },
        },
    },
    Embedded {
        id: "heroku_api_key",
        source: 0xe5584776137a661f,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"HRKU-AA"), rep(58, Some(58), true, uni(&[('\u{2d}', '\u{2d}'), ('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{5f}', '\u{5f}'), ('\u{61}', '\u{7a}')])), Hir::look(Look::WordUnicode)]),
        tree: 0x9f9b54fa78fb0602,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x07HRKU-AA"), folded: false },
        },
    },
    Embedded {
        id: "notion_token",
        source: 0x10f01b85ad92517e,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"ntn_"), rep(11, Some(11), true, uni(&[('\u{30}', '\u{39}')])), rep(35, Some(35), true, uni(&[('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{61}', '\u{7a}')])), Hir::look(Look::WordUnicode)]),
        tree: 0x203ea82a212134b4,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x05ntn_0\x05ntn_1\x05ntn_2\x05ntn_3\x05ntn_4\x05ntn_5\x05ntn_6\x05ntn_7\x05ntn_8\x05ntn_9"), folded: false },
        },
    },
    Embedded {
        id: "openshift_token",
        source: 0x832c76819dc52de7,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"sha256~"), rep(43, Some(43), true, uni(&[('\u{2d}', '\u{2d}'), ('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{5f}', '\u{5f}'), ('\u{61}', '\u{7a}')])), Hir::look(Look::WordUnicode)]),
        tree: 0xcbd446aeacafa720,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x07sha256~"), folded: false },
        },
    },
    Embedded {
        id: "perplexity_api_key",
        source: 0x345f82aefdc389e8,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"pplx-"), rep(48, Some(48), true, uni(&[('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{61}', '\u{7a}')])), Hir::look(Look::WordUnicode)]),
        tree: 0xc6200c9e19d87556,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x05pplx-"), folded: false },
        },
    },
    Embedded {
        id: "planetscale_token",
        source: 0x5869047376028d08,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"pscale_"), Hir::alternation(vec![lit(b"tkn"), lit(b"oauth"), lit(b"pw")]), lit(b"_"), rep(32, Some(64), true, uni(&[('\u{2d}', '\u{2e}'), ('\u{30}', '\u{39}'), ('\u{3d}', '\u{3d}'), ('\u{41}', '\u{5a}'), ('\u{5f}', '\u{5f}'), ('\u{61}', '\u{7a}')]))]),
        tree: 0x02dc94ae450ccedf,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x0dpscale_oauth_\x0apscale_pw_\x0bpscale_tkn_"), folded: false },
        },
    },
    Embedded {
        id: "prefect_api_key",
        source: 0x06f02287dd463066,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"pnu_"), rep(36, Some(36), true, uni(&[('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{61}', '\u{7a}')])), Hir::look(Look::WordUnicode)]),
        tree: 0x413537d52ba34204,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x04pnu_"), folded: false },
        },
    },
    Embedded {
        id: "rubygems_api_key",
        source: 0x8fca0a8fdfa7b26c,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"rubygems_"), rep(48, Some(48), true, uni(&[('\u{30}', '\u{39}'), ('\u{61}', '\u{66}')])), Hir::look(Look::WordUnicode)]),
        tree: 0xc44cef546765febe,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x0arubygems_0\x0arubygems_1\x0arubygems_2\x0arubygems_3\x0arubygems_4\x0arubygems_5\x0arubygems_6\x0arubygems_7\x0arubygems_8\x0arubygems_9\x0arubygems_a\x0arubygems_b\x0arubygems_c\x0arubygems_d\x0arubygems_e\x0arubygems_f"), folded: false },
        },
    },
    Embedded {
        id: "brevo_api_key",
        source: 0xb64cb4b9c604db0f,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"xkeysib-"), rep(64, Some(64), true, uni(&[('\u{30}', '\u{39}'), ('\u{61}', '\u{66}')])), lit(b"-"), rep(16, Some(16), true, uni(&[('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{61}', '\u{7a}')])), Hir::look(Look::WordUnicode)]),
        tree: 0x8f3fe0d18cf39708,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x09xkeysib-0\x09xkeysib-1\x09xkeysib-2\x09xkeysib-3\x09xkeysib-4\x09xkeysib-5\x09xkeysib-6\x09xkeysib-7\x09xkeysib-8\x09xkeysib-9\x09xkeysib-a\x09xkeysib-b\x09xkeysib-c\x09xkeysib-d\x09xkeysib-e\x09xkeysib-f"), folded: false },
        },
    },
    Embedded {
        id: "shippo_token",
        source: 0x67b94b5103a247b6,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"shippo_live_"), rep(40, Some(40), true, uni(&[('\u{30}', '\u{39}'), ('\u{41}', '\u{46}'), ('\u{61}', '\u{66}')])), Hir::look(Look::WordUnicode)]),
        tree: 0x7429e072be5d69ab,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x0cshippo_live_"), folded: false },
        },
    },
    Embedded {
        id: "square_token",
        source: 0x53dc9117827acef5,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), Hir::alternation(vec![Hir::concat(vec![lit(b"EAAA"), rep(60, Some(60), true, uni(&[('\u{2d}', '\u{2d}'), ('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{5f}', '\u{5f}'), ('\u{61}', '\u{7a}')]))]), Hir::concat(vec![lit(b"sq0atp-"), rep(22, Some(22), true, uni(&[('\u{2d}', '\u{2d}'), ('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{5f}', '\u{5f}'), ('\u{61}', '\u{7a}')]))]), Hir::concat(vec![lit(b"sq0csp-"), rep(43, Some(43), true, uni(&[('\u{2d}', '\u{2d}'), ('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{5f}', '\u{5f}'), ('\u{61}', '\u{7a}')]))])]), Hir::look(Look::WordUnicode)]),
        tree: 0x562076284e5ca848,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x04EAAA\x07sq0atp-\x07sq0csp-"), folded: false },
        },
    },
    Embedded {
        id: "docker_hub_token",
        source: 0x39b28a8a079af923,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"dckr_"), Hir::alternation(vec![lit(b"pat"), lit(b"oat")]), lit(b"_"), rep(27, None, true, uni(&[('\u{2d}', '\u{2d}'), ('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{5f}', '\u{5f}'), ('\u{61}', '\u{7a}')]))]),
        tree: 0xb6e422802387e3ae,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x09dckr_oat_\x09dckr_pat_"), folded: false },
        },
    },
    Embedded {
        id: "xai_api_key",
        source: 0xd8762fccc6522c70,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"xai-"), rep(80, Some(80), true, uni(&[('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{61}', '\u{7a}')])), Hir::look(Look::WordUnicode)]),
        tree: 0x9eb9bdd03f6dd3d1,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x04xai-"), folded: false },
        },
    },
    Embedded {
        id: "openrouter_api_key",
        source: 0x4d0fd41e7a2e4742,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"sk-or-v1-"), rep(64, Some(64), true, uni(&[('\u{30}', '\u{39}'), ('\u{61}', '\u{66}')])), Hir::look(Look::WordUnicode)]),
        tree: 0xfe0c7acbb159dd82,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x0ask-or-v1-0\x0ask-or-v1-1\x0ask-or-v1-2\x0ask-or-v1-3\x0ask-or-v1-4\x0ask-or-v1-5\x0ask-or-v1-6\x0ask-or-v1-7\x0ask-or-v1-8\x0ask-or-v1-9\x0ask-or-v1-a\x0ask-or-v1-b\x0ask-or-v1-c\x0ask-or-v1-d\x0ask-or-v1-e\x0ask-or-v1-f"), folded: false },
        },
    },
    Embedded {
        id: "langsmith_api_key",
        source: 0xa56592e56a5b770b,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"lsv2_"), Hir::alternation(vec![lit(b"pt"), lit(b"sk")]), lit(b"_"), rep(32, Some(32), true, uni(&[('\u{30}', '\u{39}'), ('\u{61}', '\u{66}')])), lit(b"_"), rep(10, Some(10), true, uni(&[('\u{30}', '\u{39}'), ('\u{61}', '\u{66}')])), Hir::look(Look::WordUnicode)]),
        tree: 0x421fb74f2a70b9af,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x09lsv2_pt_0\x09lsv2_pt_1\x09lsv2_pt_2\x09lsv2_pt_3\x09lsv2_pt_4\x09lsv2_pt_5\x09lsv2_pt_6\x09lsv2_pt_7\x09lsv2_pt_8\x09lsv2_pt_9\x09lsv2_pt_a\x09lsv2_pt_b\x09lsv2_pt_c\x09lsv2_pt_d\x09lsv2_pt_e\x09lsv2_pt_f\x09lsv2_sk_0\x09lsv2_sk_1\x09lsv2_sk_2\x09lsv2_sk_3\x09lsv2_sk_4\x09lsv2_sk_5\x09lsv2_sk_6\x09lsv2_sk_7\x09lsv2_sk_8\x09lsv2_sk_9\x09lsv2_sk_a\x09lsv2_sk_b\x09lsv2_sk_c\x09lsv2_sk_d\x09lsv2_sk_e\x09lsv2_sk_f"), folded: false },
        },
    },
    Embedded {
        id: "tavily_api_key",
        source: 0xc1adf6723eccd995,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"tvly-"), rep(0, Some(1), true, Hir::alternation(vec![lit(b"dev-"), lit(b"prod-")])), rep(32, Some(32), true, uni(&[('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{61}', '\u{7a}')])), Hir::look(Look::WordUnicode)]),
        tree: 0x5538fdb52e0ceaaf,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x05tvly-"), folded: false },
        },
    },
    Embedded {
        id: "replicate_api_token",
        source: 0x84b7b6f56f783a62,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"r8_"), rep(37, Some(37), true, uni(&[('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{61}', '\u{7a}')])), Hir::look(Look::WordUnicode)]),
        tree: 0x41e29e557170fe5e,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x04r8_0\x04r8_1\x04r8_2\x04r8_3\x04r8_4\x04r8_5\x04r8_6\x04r8_7\x04r8_8\x04r8_9\x04r8_A\x04r8_B\x04r8_C\x04r8_D\x04r8_E\x04r8_F\x04r8_G\x04r8_H\x04r8_I\x04r8_J\x04r8_K\x04r8_L\x04r8_M\x04r8_N\x04r8_O\x04r8_P\x04r8_Q\x04r8_R\x04r8_S\x04r8_T\x04r8_U\x04r8_V\x04r8_W\x04r8_X\x04r8_Y\x04r8_Z\x04r8_a\x04r8_b\x04r8_c\x04r8_d\x04r8_e\x04r8_f\x04r8_g\x04r8_h\x04r8_i\x04r8_j\x04r8_k\x04r8_l\x04r8_m\x04r8_n\x04r8_o\x04r8_p\x04r8_q\x04r8_r\x04r8_s\x04r8_t\x04r8_u\x04r8_v\x04r8_w\x04r8_x\x04r8_y\x04r8_z"), folded: false },
        },
    },
    Embedded {
        id: "artifactory_token",
        source: 0x5cd9139421c0222b,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), Hir::alternation(vec![Hir::concat(vec![lit(b"AKCp"), rep(69, Some(69), true, uni(&[('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{61}', '\u{7a}')]))]), Hir::concat(vec![lit(b"cmVmdGtu"), rep(56, Some(56), true, uni(&[('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{61}', '\u{7a}')]))])]), Hir::look(Look::WordUnicode)]),
        tree: 0xf87a8adc8ac89f53,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x04AKCp\x08cmVmdGtu"), folded: false },
        },
    },
    Embedded {
        id: "teams_webhook_url",
        source: 0xfe7d0e39396d7f4c,
        hir: || Hir::concat(vec![rep(0, None, true, uni(&[('\u{2d}', '\u{2d}'), ('\u{30}', '\u{39}'), ('\u{61}', '\u{7a}')])), lit(b".webhook.office.com/webhookb2/"), rep(36, Some(36), true, uni(&[('\u{2d}', '\u{2d}'), ('\u{30}', '\u{39}'), ('\u{61}', '\u{66}')])), lit(b"@"), rep(36, Some(36), true, uni(&[('\u{2d}', '\u{2d}'), ('\u{30}', '\u{39}'), ('\u{61}', '\u{66}')])), lit(b"/IncomingWebhook/"), rep(32, Some(32), true, uni(&[('\u{30}', '\u{39}'), ('\u{61}', '\u{66}')])), lit(b"/"), rep(36, Some(36), true, uni(&[('\u{2d}', '\u{2d}'), ('\u{30}', '\u{39}'), ('\u{61}', '\u{66}')]))]),
        tree: 0x7ed8567f41fce87c,
        plan: Plan {
            single_line: true,
            find: Find::Guard { literals: Literals::embedded(b"\x1e.webhook.office.com/webhookb2/"), split: 1, lead: false, head: Some(Cow::Borrowed(&[('\u{2d}', '\u{2d}'), ('\u{30}', '\u{39}'), ('\u{61}', '\u{7a}')])), single_head: true },
        },
    },
    Embedded {
        id: "discord_webhook_url",
        source: 0x902a59e2dd8b62be,
        hir: || Hir::concat(vec![lit(b"https://"), rep(0, Some(1), true, Hir::alternation(vec![lit(b"ptb."), lit(b"canary.")])), lit(b"discord"), rep(0, Some(1), true, lit(b"app")), lit(b".com/api/webhooks/"), rep(17, Some(20), true, uni(&[('\u{30}', '\u{39}')])), lit(b"/"), rep(60, None, true, uni(&[('\u{2d}', '\u{2d}'), ('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{5f}', '\u{5f}'), ('\u{61}', '\u{7a}')]))]),
        tree: 0x99aaa9a31d39dd51,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"(https://canary.discord.com/api/webhooks/+https://canary.discordapp.com/api/webhooks/!https://discord.com/api/webhooks/$https://discordapp.com/api/webhooks/%https://ptb.discord.com/api/webhooks/(https://ptb.discordapp.com/api/webhooks/"), folded: false },
        },
    },
    Embedded {
        id: "mapbox_secret_token",
        source: 0x21e086e8b1cd762a,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"sk.eyJ"), rep(10, None, true, uni(&[('\u{2d}', '\u{2d}'), ('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{5f}', '\u{5f}'), ('\u{61}', '\u{7a}')])), lit(b"."), rep(22, None, true, uni(&[('\u{2d}', '\u{2d}'), ('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{5f}', '\u{5f}'), ('\u{61}', '\u{7a}')]))]),
        tree: 0x7f230708f58a0c9e,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x06sk.eyJ"), folded: false },
        },
    },
    Embedded {
        id: "age_secret_key",
        source: 0x0823bb04f2c31433,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"AGE-SECRET-KEY-1"), rep(58, Some(58), true, uni(&[('\u{30}', '\u{30}'), ('\u{32}', '\u{39}'), ('\u{41}', '\u{41}'), ('\u{43}', '\u{48}'), ('\u{4a}', '\u{4e}'), ('\u{50}', '\u{5a}')])), Hir::look(Look::WordUnicode)]),
        tree: 0x64a05dcfbc0a8956,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x10AGE-SECRET-KEY-1"), folded: false },
        },
    },
    Embedded {
        id: "private_key",
        source: 0x4d5086874bd04180,
        hir: || Hir::concat(vec![Hir::alternation(vec![Hir::concat(vec![lit(b"-----BEGIN"), rep(0, None, true, uni(&[('\u{20}', '\u{20}'), ('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}')])), lit(b"PRIVATE KEY"), rep(0, Some(1), true, lit(b" BLOCK")), lit(b"-----")]), lit(b"---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----"), Hir::concat(vec![lit(b"PuTTY-User-Key-File-"), uni(&[('\u{30}', '\u{39}')]), lit(b": "), rep(0, None, true, uni(&[('\u{0}', '\u{9}'), ('\u{b}', '\u{c}'), ('\u{e}', '\u{10ffff}')])), rep(0, None, false, Hir::concat(vec![rep(0, Some(1), true, lit(b"\x0d")), lit(b"\x0a"), rep(0, None, true, uni(&[('\u{0}', '\u{9}'), ('\u{b}', '\u{c}'), ('\u{e}', '\u{10ffff}')]))])), rep(0, Some(1), true, lit(b"\x0d")), lit(b"\x0aPrivate-Lines: "), rep(1, None, true, uni(&[('\u{30}', '\u{39}')]))])]), rep(0, None, true, Hir::alternation(vec![Hir::concat(vec![uni(&[('\u{41}', '\u{5a}'), ('\u{61}', '\u{7a}')]), rep(0, None, true, uni(&[('\u{2d}', '\u{2d}'), ('\u{41}', '\u{5a}'), ('\u{61}', '\u{7a}')])), lit(b": "), rep(0, None, true, uni(&[('\u{0}', '\u{9}'), ('\u{b}', '\u{c}'), ('\u{e}', '\u{10ffff}')])), rep(0, Some(1), true, lit(b"\x0d")), lit(b"\x0a")]), uni(&[('\u{9}', '\u{d}'), ('\u{20}', '\u{20}'), ('\u{2b}', '\u{2c}'), ('\u{2e}', '\u{3a}'), ('\u{3d}', '\u{3d}'), ('\u{41}', '\u{5a}'), ('\u{5c}', '\u{5c}'), ('\u{61}', '\u{7a}'), ('\u{85}', '\u{85}'), ('\u{a0}', '\u{a0}'), ('\u{1680}', '\u{1680}'), ('\u{2000}', '\u{200a}'), ('\u{2028}', '\u{2029}'), ('\u{202f}', '\u{202f}'), ('\u{205f}', '\u{205f}'), ('\u{3000}', '\u{3000}')]), Hir::concat(vec![lit(b"-"), uni(&[('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{61}', '\u{7a}')])])])), rep(0, Some(1), true, Hir::alternation(vec![Hir::concat(vec![lit(b"-----END"), rep(0, None, true, uni(&[('\u{20}', '\u{20}'), ('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}')])), lit(b"PRIVATE KEY"), rep(0, Some(1), true, lit(b" BLOCK")), lit(b"-----")]), lit(b"---- END SSH2 ENCRYPTED PRIVATE KEY ----")]))]),
        tree: 0xe64ad20cb643b143,
        plan: Plan {
            single_line: false,
            find: Find::Prefix { literals: Literals::embedded(b"*---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----\x0a-----BEGIN\x17PuTTY-User-Key-File-0: \x17PuTTY-User-Key-File-1: \x17PuTTY-User-Key-File-2: \x17PuTTY-User-Key-File-3: \x17PuTTY-User-Key-File-4: \x17PuTTY-User-Key-File-5: \x17PuTTY-User-Key-File-6: \x17PuTTY-User-Key-File-7: \x17PuTTY-User-Key-File-8: \x17PuTTY-User-Key-File-9: "), folded: false },
        },
    },
    Embedded {
        id: "jwt",
        source: 0x18a672227d29e8ef,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"eyJ"), rep(10, None, true, uni(&[('\u{2d}', '\u{2d}'), ('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{5f}', '\u{5f}'), ('\u{61}', '\u{7a}')])), lit(b".eyJ"), rep(10, None, true, uni(&[('\u{2d}', '\u{2d}'), ('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{5f}', '\u{5f}'), ('\u{61}', '\u{7a}')])), lit(b"."), rep(0, None, true, uni(&[('\u{2d}', '\u{2d}'), ('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{5f}', '\u{5f}'), ('\u{61}', '\u{7a}')]))]),
        tree: 0x89a9f699d6f60f28,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x04eyJ-\x04eyJ0\x04eyJ1\x04eyJ2\x04eyJ3\x04eyJ4\x04eyJ5\x04eyJ6\x04eyJ7\x04eyJ8\x04eyJ9\x04eyJA\x04eyJB\x04eyJC\x04eyJD\x04eyJE\x04eyJF\x04eyJG\x04eyJH\x04eyJI\x04eyJJ\x04eyJK\x04eyJL\x04eyJM\x04eyJN\x04eyJO\x04eyJP\x04eyJQ\x04eyJR\x04eyJS\x04eyJT\x04eyJU\x04eyJV\x04eyJW\x04eyJX\x04eyJY\x04eyJZ\x04eyJ_\x04eyJa\x04eyJb\x04eyJc\x04eyJd\x04eyJe\x04eyJf\x04eyJg\x04eyJh\x04eyJi\x04eyJj\x04eyJk\x04eyJl\x04eyJm\x04eyJn\x04eyJo\x04eyJp\x04eyJq\x04eyJr\x04eyJs\x04eyJt\x04eyJu\x04eyJv\x04eyJw\x04eyJx\x04eyJy\x04eyJz"), folded: false },
        },
    },
    Embedded {
        id: "bearer_token",
        source: 0x7201f99e13259854,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), uni(&[('\u{42}', '\u{42}'), ('\u{62}', '\u{62}')]), uni(&[('\u{45}', '\u{45}'), ('\u{65}', '\u{65}')]), uni(&[('\u{41}', '\u{41}'), ('\u{61}', '\u{61}')]), uni(&[('\u{52}', '\u{52}'), ('\u{72}', '\u{72}')]), uni(&[('\u{45}', '\u{45}'), ('\u{65}', '\u{65}')]), uni(&[('\u{52}', '\u{52}'), ('\u{72}', '\u{72}')]), rep(1, None, true, uni(&[('\u{9}', '\u{9}'), ('\u{20}', '\u{20}')])), rep(16, None, true, uni(&[('\u{2b}', '\u{2b}'), ('\u{2d}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{5f}', '\u{5f}'), ('\u{61}', '\u{7a}'), ('\u{7e}', '\u{7e}'), ('\u{17f}', '\u{17f}'), ('\u{212a}', '\u{212a}')])), rep(0, None, true, lit(b"="))]),
        tree: 0xc6c8e2da7e42aa5d,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x07bearer\x09\x07bearer "), folded: true },
        },
    },
    Embedded {
        id: "basic_auth_header",
        source: 0xebf23c0ef696922b,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), uni(&[('\u{42}', '\u{42}'), ('\u{62}', '\u{62}')]), uni(&[('\u{41}', '\u{41}'), ('\u{61}', '\u{61}')]), uni(&[('\u{53}', '\u{53}'), ('\u{73}', '\u{73}'), ('\u{17f}', '\u{17f}')]), uni(&[('\u{49}', '\u{49}'), ('\u{69}', '\u{69}')]), uni(&[('\u{43}', '\u{43}'), ('\u{63}', '\u{63}')]), rep(1, None, true, uni(&[('\u{9}', '\u{9}'), ('\u{20}', '\u{20}')])), rep(8, None, true, uni(&[('\u{2b}', '\u{2b}'), ('\u{2f}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{61}', '\u{7a}'), ('\u{17f}', '\u{17f}'), ('\u{212a}', '\u{212a}')])), rep(0, Some(2), true, lit(b"="))]),
        tree: 0xec8017bb369383f5,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x06basic\x09\x06basic \x07ba\xc5\xbfic\x09\x07ba\xc5\xbfic "), folded: true },
        },
    },
    Embedded {
        id: "basic_auth_header",
        source: 0xebf23c0ef696922b,
        hir: || Hir::concat(vec![rep(0, Some(1), true, lit(b"\\")), lit(b"\""), uni(&[('\u{41}', '\u{41}'), ('\u{61}', '\u{61}')]), uni(&[('\u{55}', '\u{55}'), ('\u{75}', '\u{75}')]), uni(&[('\u{54}', '\u{54}'), ('\u{74}', '\u{74}')]), uni(&[('\u{48}', '\u{48}'), ('\u{68}', '\u{68}')]), rep(0, Some(1), true, lit(b"\\")), lit(b"\""), rep(0, None, true, uni(&[('\u{9}', '\u{9}'), ('\u{20}', '\u{20}')])), lit(b":"), rep(0, None, true, uni(&[('\u{9}', '\u{9}'), ('\u{20}', '\u{20}')])), rep(0, Some(1), true, lit(b"\\")), lit(b"\""), rep(8, None, true, uni(&[('\u{2b}', '\u{2b}'), ('\u{2f}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{61}', '\u{7a}'), ('\u{17f}', '\u{17f}'), ('\u{212a}', '\u{212a}')])), rep(0, Some(2), true, lit(b"="))]),
        tree: 0xe4ac96df43f5ccac,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x04\"AUT\x04\"AUt\x04\"AuT\x04\"Aut\x04\"aUT\x04\"aUt\x04\"auT\x04\"aut\x05\\\"AUT\x05\\\"AUt\x05\\\"AuT\x05\\\"Aut\x05\\\"aUT\x05\\\"aUt\x05\\\"auT\x05\\\"aut"), folded: false },
        },
    },
    Embedded {
        id: "url_password",
        source: 0x4178845ce23156be,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), uni(&[('\u{41}', '\u{5a}'), ('\u{61}', '\u{7a}')]), rep(1, Some(30), true, uni(&[('\u{2b}', '\u{2b}'), ('\u{2d}', '\u{2e}'), ('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{61}', '\u{7a}')])), lit(b"://"), rep(0, None, true, uni(&[('\u{0}', '\u{8}'), ('\u{e}', '\u{1f}'), ('\u{21}', '\u{21}'), ('\u{24}', '\u{26}'), ('\u{28}', '\u{2e}'), ('\u{30}', '\u{39}'), ('\u{3b}', '\u{3b}'), ('\u{3d}', '\u{3d}'), ('\u{41}', '\u{84}'), ('\u{86}', '\u{9f}'), ('\u{a1}', '\u{167f}'), ('\u{1681}', '\u{1fff}'), ('\u{200b}', '\u{2027}'), ('\u{202a}', '\u{202e}'), ('\u{2030}', '\u{205e}'), ('\u{2060}', '\u{2fff}'), ('\u{3001}', '\u{10ffff}')])), lit(b":"), rep(1, None, true, uni(&[('\u{0}', '\u{8}'), ('\u{e}', '\u{1f}'), ('\u{21}', '\u{21}'), ('\u{24}', '\u{26}'), ('\u{28}', '\u{2e}'), ('\u{30}', '\u{39}'), ('\u{3b}', '\u{3b}'), ('\u{3d}', '\u{3d}'), ('\u{41}', '\u{84}'), ('\u{86}', '\u{9f}'), ('\u{a1}', '\u{167f}'), ('\u{1681}', '\u{1fff}'), ('\u{200b}', '\u{2027}'), ('\u{202a}', '\u{202e}'), ('\u{2030}', '\u{205e}'), ('\u{2060}', '\u{2fff}'), ('\u{3001}', '\u{10ffff}')])), lit(b"@")]),
        tree: 0x66ce8b32640b53e1,
        plan: Plan {
            single_line: true,
            find: Find::Guard { literals: Literals::embedded(b"\x04+://\x04-://\x04.://\x040://\x041://\x042://\x043://\x044://\x045://\x046://\x047://\x048://\x049://\x04a://\x04b://\x04c://\x04d://\x04e://\x04f://\x04g://\x04h://\x04i://\x04j://\x04k://\x04l://\x04m://\x04n://\x04o://\x04p://\x04q://\x04r://\x04s://\x04t://\x04u://\x04v://\x04w://\x04x://\x04y://\x04z://"), split: 3, lead: true, head: None, single_head: false },
        },
    },
    Embedded {
        id: "password_assignment",
        source: 0xf50e5be679b620a0,
        hir: || Hir::concat(vec![rep(0, None, true, uni(&[('\u{2d}', '\u{2e}'), ('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{5f}', '\u{5f}'), ('\u{61}', '\u{7a}'), ('\u{17f}', '\u{17f}'), ('\u{212a}', '\u{212a}')])), Hir::alternation(vec![Hir::concat(vec![uni(&[('\u{50}', '\u{50}'), ('\u{70}', '\u{70}')]), Hir::alternation(vec![Hir::concat(vec![uni(&[('\u{41}', '\u{41}'), ('\u{61}', '\u{61}')]), uni(&[('\u{53}', '\u{53}'), ('\u{73}', '\u{73}'), ('\u{17f}', '\u{17f}')]), uni(&[('\u{53}', '\u{53}'), ('\u{73}', '\u{73}'), ('\u{17f}', '\u{17f}')]), Hir::alternation(vec![Hir::concat(vec![uni(&[('\u{57}', '\u{57}'), ('\u{77}', '\u{77}')]), uni(&[('\u{4f}', '\u{4f}'), ('\u{6f}', '\u{6f}')]), uni(&[('\u{52}', '\u{52}'), ('\u{72}', '\u{72}')]), uni(&[('\u{44}', '\u{44}'), ('\u{64}', '\u{64}')])]), Hir::concat(vec![uni(&[('\u{57}', '\u{57}'), ('\u{77}', '\u{77}')]), uni(&[('\u{44}', '\u{44}'), ('\u{64}', '\u{64}')])]), Hir::concat(vec![uni(&[('\u{50}', '\u{50}'), ('\u{70}', '\u{70}')]), uni(&[('\u{48}', '\u{48}'), ('\u{68}', '\u{68}')]), uni(&[('\u{52}', '\u{52}'), ('\u{72}', '\u{72}')]), uni(&[('\u{41}', '\u{41}'), ('\u{61}', '\u{61}')]), uni(&[('\u{53}', '\u{53}'), ('\u{73}', '\u{73}'), ('\u{17f}', '\u{17f}')]), uni(&[('\u{45}', '\u{45}'), ('\u{65}', '\u{65}')])])])]), Hir::concat(vec![uni(&[('\u{57}', '\u{57}'), ('\u{77}', '\u{77}')]), uni(&[('\u{44}', '\u{44}'), ('\u{64}', '\u{64}')])])]), rep(0, None, true, uni(&[('\u{2d}', '\u{2e}'), ('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{5f}', '\u{5f}'), ('\u{61}', '\u{7a}'), ('\u{17f}', '\u{17f}'), ('\u{212a}', '\u{212a}')]))]), Hir::concat(vec![uni(&[('\u{2d}', '\u{2e}'), ('\u{5f}', '\u{5f}')]), uni(&[('\u{50}', '\u{50}'), ('\u{70}', '\u{70}')]), uni(&[('\u{41}', '\u{41}'), ('\u{61}', '\u{61}')]), uni(&[('\u{53}', '\u{53}'), ('\u{73}', '\u{73}'), ('\u{17f}', '\u{17f}')]), uni(&[('\u{53}', '\u{53}'), ('\u{73}', '\u{73}'), ('\u{17f}', '\u{17f}')])]), Hir::concat(vec![Hir::look(Look::WordUnicode), uni(&[('\u{50}', '\u{50}'), ('\u{70}', '\u{70}')]), uni(&[('\u{41}', '\u{41}'), ('\u{61}', '\u{61}')]), uni(&[('\u{53}', '\u{53}'), ('\u{73}', '\u{73}'), ('\u{17f}', '\u{17f}')]), uni(&[('\u{53}', '\u{53}'), ('\u{73}', '\u{73}'), ('\u{17f}', '\u{17f}')])])]), rep(0, Some(1), true, Hir::concat(vec![rep(0, Some(1), true, lit(b"\\")), uni(&[('\u{22}', '\u{22}'), ('\u{27}', '\u{27}')])])), rep(0, None, true, uni(&[('\u{9}', '\u{9}'), ('\u{20}', '\u{20}')])), Hir::alternation(vec![lit(b"=>"), lit(b":="), lit(b"="), lit(b":")]), rep(0, None, true, uni(&[('\u{9}', '\u{9}'), ('\u{20}', '\u{20}')])), Hir::alternation(vec![Hir::concat(vec![lit(b"\""), rep(6, None, true, uni(&[('\u{0}', '\u{9}'), ('\u{b}', '\u{c}'), ('\u{e}', '\u{21}'), ('\u{23}', '\u{10ffff}')])), lit(b"\"")]), Hir::concat(vec![lit(b"'"), rep(6, None, true, uni(&[('\u{0}', '\u{9}'), ('\u{b}', '\u{c}'), ('\u{e}', '\u{26}'), ('\u{28}', '\u{10ffff}')])), lit(b"'")]), Hir::concat(vec![lit(b"\\\""), rep(6, None, true, uni(&[('\u{0}', '\u{9}'), ('\u{b}', '\u{c}'), ('\u{e}', '\u{21}'), ('\u{23}', '\u{5b}'), ('\u{5d}', '\u{10ffff}')])), lit(b"\\\"")]), rep(6, None, true, uni(&[('\u{0}', '\u{8}'), ('\u{e}', '\u{1f}'), ('\u{21}', '\u{21}'), ('\u{23}', '\u{26}'), ('\u{28}', '\u{3a}'), ('\u{3c}', '\u{5b}'), ('\u{5d}', '\u{84}'), ('\u{86}', '\u{9f}'), ('\u{a1}', '\u{167f}'), ('\u{1681}', '\u{1fff}'), ('\u{200b}', '\u{2027}'), ('\u{202a}', '\u{202e}'), ('\u{2030}', '\u{205e}'), ('\u{2060}', '\u{2fff}'), ('\u{3001}', '\u{10ffff}')]))])]),
        tree: 0x741fc356697c90ea,
        plan: Plan {
            single_line: true,
            find: Find::Guard { literals: Literals::embedded(b"\x06-pass\x09\x06-pass \x07-pass\"\x09\x07-pass\" \x07-pass\":\x07-pass\"=\x07-pass'\x09\x07-pass' \x07-pass':\x07-pass'=\x06-pass:\x06-pass=\x08-pass\\\"\x09\x08-pass\\\" \x08-pass\\\":\x08-pass\\\"=\x08-pass\\'\x09\x08-pass\\' \x08-pass\\':\x08-pass\\'=\x07-pas\xc5\xbf\x09\x07-pas\xc5\xbf \x08-pas\xc5\xbf\"\x09\x08-pas\xc5\xbf\" \x08-pas\xc5\xbf\":\x08-pas\xc5\xbf\"=\x08-pas\xc5\xbf'\x09\x08-pas\xc5\xbf' \x08-pas\xc5\xbf':\x08-pas\xc5\xbf'=\x07-pas\xc5\xbf:\x07-pas\xc5\xbf=\x09-pas\xc5\xbf\\\"\x09\x09-pas\xc5\xbf\\\" \x09-pas\xc5\xbf\\\":\x09-pas\xc5\xbf\\\"=\x09-pas\xc5\xbf\\'\x09\x09-pas\xc5\xbf\\' \x09-pas\xc5\xbf\\':\x09-pas\xc5\xbf\\'=\x07-pa\xc5\xbfs\x09\x07-pa\xc5\xbfs \x08-pa\xc5\xbfs\"\x09\x08-pa\xc5\xbfs\" \x08-pa\xc5\xbfs\":\x08-pa\xc5\xbfs\"=\x08-pa\xc5\xbfs'\x09\x08-pa\xc5\xbfs' \x08-pa\xc5\xbfs':\x08-pa\xc5\xbfs'=\x07-pa\xc5\xbfs:\x07-pa\xc5\xbfs=\x09-pa\xc5\xbfs\\\"\x09\x09-pa\xc5\xbfs\\\" \x09-pa\xc5\xbfs\\\":\x09-pa\xc5\xbfs\\\"=\x09-pa\xc5\xbfs\\'\x09\x09-pa\xc5\xbfs\\' \x09-pa\xc5\xbfs\\':\x09-pa\xc5\xbfs\\'=\x08-pa\xc5\xbf\xc5\xbf\x09\x08-pa\xc5\xbf\xc5\xbf \x09-pa\xc5\xbf\xc5\xbf\"\x09\x09-pa\xc5\xbf\xc5\xbf\" \x09-pa\xc5\xbf\xc5\xbf\":\x09-pa\xc5\xbf\xc5\xbf\"=\x09-pa\xc5\xbf\xc5\xbf'\x09\x09-pa\xc5\xbf\xc5\xbf' \x09-pa\xc5\xbf\xc5\xbf':\x09-pa\xc5\xbf\xc5\xbf'=\x08-pa\xc5\xbf\xc5\xbf:\x08-pa\xc5\xbf\xc5\xbf=\x0a-pa\xc5\xbf\xc5\xbf\\\"\x09\x0a-pa\xc5\xbf\xc5\xbf\\\" \x0a-pa\xc5\xbf\xc5\xbf\\\":\x0a-pa\xc5\xbf\xc5\xbf\\\"=\x0a-pa\xc5\xbf\xc5\xbf\\'\x09\x0a-pa\xc5\xbf\xc5\xbf\\' \x0a-pa\xc5\xbf\xc5\xbf\\':\x0a-pa\xc5\xbf\xc5\xbf\\'=\x06.pass\x09\x06.pass \x07.pass\"\x09\x07.pass\" \x07.pass\":\x07.pass\"=\x07.pass'\x09\x07.pass' \x07.pass':\x07.pass'=\x06.pass:\x06.pass=\x08.pass\\\"\x09\x08.pass\\\" \x08.pass\\\":\x08.pass\\\"=\x08.pass\\'\x09\x08.pass\\' \x08.pass\\':\x08.pass\\'=\x07.pas\xc5\xbf\x09\x07.pas\xc5\xbf \x08.pas\xc5\xbf\"\x09\x08.pas\xc5\xbf\" \x08.pas\xc5\xbf\":\x08.pas\xc5\xbf\"=\x08.pas\xc5\xbf'\x09\x08.pas\xc5\xbf' \x08.pas\xc5\xbf':\x08.pas\xc5\xbf'=\x07.pas\xc5\xbf:\x07.pas\xc5\xbf=\x09.pas\xc5\xbf\\\"\x09\x09.pas\xc5\xbf\\\" \x09.pas\xc5\xbf\\\":\x09.pas\xc5\xbf\\\"=\x09.pas\xc5\xbf\\'\x09\x09.pas\xc5\xbf\\' \x09.pas\xc5\xbf\\':\x09.pas\xc5\xbf\\'=\x07.pa\xc5\xbfs\x09\x07.pa\xc5\xbfs \x08.pa\xc5\xbfs\"\x09\x08.pa\xc5\xbfs\" \x08.pa\xc5\xbfs\":\x08.pa\xc5\xbfs\"=\x08.pa\xc5\xbfs'\x09\x08.pa\xc5\xbfs' \x08.pa\xc5\xbfs':\x08.pa\xc5\xbfs'=\x07.pa\xc5\xbfs:\x07.pa\xc5\xbfs=\x09.pa\xc5\xbfs\\\"\x09\x09.pa\xc5\xbfs\\\" \x09.pa\xc5\xbfs\\\":\x09.pa\xc5\xbfs\\\"=\x09.pa\xc5\xbfs\\'\x09\x09.pa\xc5\xbfs\\' \x09.pa\xc5\xbfs\\':\x09.pa\xc5\xbfs\\'=\x08.pa\xc5\xbf\xc5\xbf\x09\x08.pa\xc5\xbf\xc5\xbf \x09.pa\xc5\xbf\xc5\xbf\"\x09\x09.pa\xc5\xbf\xc5\xbf\" \x09.pa\xc5\xbf\xc5\xbf\":\x09.pa\xc5\xbf\xc5\xbf\"=\x09.pa\xc5\xbf\xc5\xbf'\x09\x09.pa\xc5\xbf\xc5\xbf' \x09.pa\xc5\xbf\xc5\xbf':\x09.pa\xc5\xbf\xc5\xbf'=\x08.pa\xc5\xbf\xc5\xbf:\x08.pa\xc5\xbf\xc5\xbf=\x0a.pa\xc5\xbf\xc5\xbf\\\"\x09\x0a.pa\xc5\xbf\xc5\xbf\\\" \x0a.pa\xc5\xbf\xc5\xbf\\\":\x0a.pa\xc5\xbf\xc5\xbf\\\"=\x0a.pa\xc5\xbf\xc5\xbf\\'\x09\x0a.pa\xc5\xbf\xc5\xbf\\' \x0a.pa\xc5\xbf\xc5\xbf\\':\x0a.pa\xc5\xbf\xc5\xbf\\'=\x06_pass\x09\x06_pass \x07_pass\"\x09\x07_pass\" \x07_pass\":\x07_pass\"=\x07_pass'\x09\x07_pass' \x07_pass':\x07_pass'=\x06_pass:\x06_pass=\x08_pass\\\"\x09\x08_pass\\\" \x08_pass\\\":\x08_pass\\\"=\x08_pass\\'\x09\x08_pass\\' \x08_pass\\':\x08_pass\\'=\x07_pas\xc5\xbf\x09\x07_pas\xc5\xbf \x08_pas\xc5\xbf\"\x09\x08_pas\xc5\xbf\" \x08_pas\xc5\xbf\":\x08_pas\xc5\xbf\"=\x08_pas\xc5\xbf'\x09\x08_pas\xc5\xbf' \x08_pas\xc5\xbf':\x08_pas\xc5\xbf'=\x07_pas\xc5\xbf:\x07_pas\xc5\xbf=\x09_pas\xc5\xbf\\\"\x09\x09_pas\xc5\xbf\\\" \x09_pas\xc5\xbf\\\":\x09_pas\xc5\xbf\\\"=\x09_pas\xc5\xbf\\'\x09\x09_pas\xc5\xbf\\' \x09_pas\xc5\xbf\\':\x09_pas\xc5\xbf\\'=\x07_pa\xc5\xbfs\x09\x07_pa\xc5\xbfs \x08_pa\xc5\xbfs\"\x09\x08_pa\xc5\xbfs\" \x08_pa\xc5\xbfs\":\x08_pa\xc5\xbfs\"=\x08_pa\xc5\xbfs'\x09\x08_pa\xc5\xbfs' \x08_pa\xc5\xbfs':\x08_pa\xc5\xbfs'=\x07_pa\xc5\xbfs:\x07_pa\xc5\xbfs=\x09_pa\xc5\xbfs\\\"\x09\x09_pa\xc5\xbfs\\\" \x09_pa\xc5\xbfs\\\":\x09_pa\xc5\xbfs\\\"=\x09_pa\xc5\xbfs\\'\x09\x09_pa\xc5\xbfs\\' \x09_pa\xc5\xbfs\\':\x09_pa\xc5\xbfs\\'=\x08_pa\xc5\xbf\xc5\xbf\x09\x08_pa\xc5\xbf\xc5\xbf \x09_pa\xc5\xbf\xc5\xbf\"\x09\x09_pa\xc5\xbf\xc5\xbf\" \x09_pa\xc5\xbf\xc5\xbf\":\x09_pa\xc5\xbf\xc5\xbf\"=\x09_pa\xc5\xbf\xc5\xbf'\x09\x09_pa\xc5\xbf\xc5\xbf' \x09_pa\xc5\xbf\xc5\xbf':\x09_pa\xc5\xbf\xc5\xbf'=\x08_pa\xc5\xbf\xc5\xbf:\x08_pa\xc5\xbf\xc5\xbf=\x0a_pa\xc5\xbf\xc5\xbf\\\"\x09\x0a_pa\xc5\xbf\xc5\xbf\\\" \x0a_pa\xc5\xbf\xc5\xbf\\\":\x0a_pa\xc5\xbf\xc5\xbf\\\"=\x0a_pa\xc5\xbf\xc5\xbf\\'\x09\x0a_pa\xc5\xbf\xc5\xbf\\' \x0a_pa\xc5\xbf\xc5\xbf\\':\x0a_pa\xc5\xbf\xc5\xbf\\'=\x05pass\x09\x05pass \x06pass\"\x09\x06pass\" \x06pass\":\x06pass\"=\x06pass'\x09\x06pass' \x06pass':\x06pass'=\x05pass:\x05pass=\x07pass\\\"\x09\x07pass\\\" \x07pass\\\":\x07pass\\\"=\x07pass\\'\x09\x07pass\\' \x07pass\\':\x07pass\\'=\x0apassphrase\x0bpassphra\xc5\xbfe\x06passwd\x08password\x06pas\xc5\xbf\x09\x06pas\xc5\xbf \x07pas\xc5\xbf\"\x09\x07pas\xc5\xbf\" \x07pas\xc5\xbf\":\x07pas\xc5\xbf\"=\x07pas\xc5\xbf'\x09\x07pas\xc5\xbf' \x07pas\xc5\xbf':\x07pas\xc5\xbf'=\x06pas\xc5\xbf:\x06pas\xc5\xbf=\x08pas\xc5\xbf\\\"\x09\x08pas\xc5\xbf\\\" \x08pas\xc5\xbf\\\":\x08pas\xc5\xbf\\\"=\x08pas\xc5\xbf\\'\x09\x08pas\xc5\xbf\\' \x08pas\xc5\xbf\\':\x08pas\xc5\xbf\\'=\x0bpas\xc5\xbfphrase\x0cpas\xc5\xbfphra\xc5\xbfe\x07pas\xc5\xbfwd\x09pas\xc5\xbfword\x06pa\xc5\xbfs\x09\x06pa\xc5\xbfs \x07pa\xc5\xbfs\"\x09\x07pa\xc5\xbfs\" \x07pa\xc5\xbfs\":\x07pa\xc5\xbfs\"=\x07pa\xc5\xbfs'\x09\x07pa\xc5\xbfs' \x07pa\xc5\xbfs':\x07pa\xc5\xbfs'=\x06pa\xc5\xbfs:\x06pa\xc5\xbfs=\x08pa\xc5\xbfs\\\"\x09\x08pa\xc5\xbfs\\\" \x08pa\xc5\xbfs\\\":\x08pa\xc5\xbfs\\\"=\x08pa\xc5\xbfs\\'\x09\x08pa\xc5\xbfs\\' \x08pa\xc5\xbfs\\':\x08pa\xc5\xbfs\\'=\x0bpa\xc5\xbfsphrase\x0cpa\xc5\xbfsphra\xc5\xbfe\x07pa\xc5\xbfswd\x09pa\xc5\xbfsword\x07pa\xc5\xbf\xc5\xbf\x09\x07pa\xc5\xbf\xc5\xbf \x08pa\xc5\xbf\xc5\xbf\"\x09\x08pa\xc5\xbf\xc5\xbf\" \x08pa\xc5\xbf\xc5\xbf\":\x08pa\xc5\xbf\xc5\xbf\"=\x08pa\xc5\xbf\xc5\xbf'\x09\x08pa\xc5\xbf\xc5\xbf' \x08pa\xc5\xbf\xc5\xbf':\x08pa\xc5\xbf\xc5\xbf'=\x07pa\xc5\xbf\xc5\xbf:\x07pa\xc5\xbf\xc5\xbf=\x09pa\xc5\xbf\xc5\xbf\\\"\x09\x09pa\xc5\xbf\xc5\xbf\\\" \x09pa\xc5\xbf\xc5\xbf\\\":\x09pa\xc5\xbf\xc5\xbf\\\"=\x09pa\xc5\xbf\xc5\xbf\\'\x09\x09pa\xc5\xbf\xc5\xbf\\' \x09pa\xc5\xbf\xc5\xbf\\':\x09pa\xc5\xbf\xc5\xbf\\'=\x0cpa\xc5\xbf\xc5\xbfphrase\x0dpa\xc5\xbf\xc5\xbfphra\xc5\xbfe\x08pa\xc5\xbf\xc5\xbfwd\x0apa\xc5\xbf\xc5\xbfword\x03pwd"), split: 1, lead: false, head: Some(Cow::Borrowed(&[('\u{2d}', '\u{2e}'), ('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{5f}', '\u{5f}'), ('\u{61}', '\u{7a}'), ('\u{17f}', '\u{17f}'), ('\u{212a}', '\u{212a}')])), single_head: true },
        },
    },
    Embedded {
        id: "secret_assignment",
        source: 0x1c1e2dbbccdd085a,
        hir: || Hir::concat(vec![rep(0, None, true, uni(&[('\u{2d}', '\u{2e}'), ('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{5f}', '\u{5f}'), ('\u{61}', '\u{7a}'), ('\u{17f}', '\u{17f}'), ('\u{212a}', '\u{212a}')])), Hir::alternation(vec![Hir::concat(vec![Hir::alternation(vec![Hir::concat(vec![uni(&[('\u{53}', '\u{53}'), ('\u{73}', '\u{73}'), ('\u{17f}', '\u{17f}')]), uni(&[('\u{45}', '\u{45}'), ('\u{65}', '\u{65}')]), uni(&[('\u{43}', '\u{43}'), ('\u{63}', '\u{63}')]), uni(&[('\u{52}', '\u{52}'), ('\u{72}', '\u{72}')]), uni(&[('\u{45}', '\u{45}'), ('\u{65}', '\u{65}')]), uni(&[('\u{54}', '\u{54}'), ('\u{74}', '\u{74}')])]), Hir::concat(vec![uni(&[('\u{54}', '\u{54}'), ('\u{74}', '\u{74}')]), uni(&[('\u{4f}', '\u{4f}'), ('\u{6f}', '\u{6f}')]), uni(&[('\u{4b}', '\u{4b}'), ('\u{6b}', '\u{6b}'), ('\u{212a}', '\u{212a}')]), uni(&[('\u{45}', '\u{45}'), ('\u{65}', '\u{65}')]), uni(&[('\u{4e}', '\u{4e}'), ('\u{6e}', '\u{6e}')])]), Hir::concat(vec![uni(&[('\u{41}', '\u{41}'), ('\u{61}', '\u{61}')]), uni(&[('\u{50}', '\u{50}'), ('\u{70}', '\u{70}')]), uni(&[('\u{49}', '\u{49}'), ('\u{69}', '\u{69}')]), rep(0, Some(1), true, uni(&[('\u{2d}', '\u{2e}'), ('\u{5f}', '\u{5f}')])), uni(&[('\u{4b}', '\u{4b}'), ('\u{6b}', '\u{6b}'), ('\u{212a}', '\u{212a}')]), uni(&[('\u{45}', '\u{45}'), ('\u{65}', '\u{65}')]), uni(&[('\u{59}', '\u{59}'), ('\u{79}', '\u{79}')])]), Hir::concat(vec![uni(&[('\u{41}', '\u{41}'), ('\u{61}', '\u{61}')]), uni(&[('\u{50}', '\u{50}'), ('\u{70}', '\u{70}')]), uni(&[('\u{49}', '\u{49}'), ('\u{69}', '\u{69}')]), uni(&[('\u{4b}', '\u{4b}'), ('\u{6b}', '\u{6b}'), ('\u{212a}', '\u{212a}')]), uni(&[('\u{45}', '\u{45}'), ('\u{65}', '\u{65}')]), uni(&[('\u{59}', '\u{59}'), ('\u{79}', '\u{79}')])]), Hir::concat(vec![uni(&[('\u{41}', '\u{41}'), ('\u{61}', '\u{61}')]), uni(&[('\u{43}', '\u{43}'), ('\u{63}', '\u{63}')]), uni(&[('\u{43}', '\u{43}'), ('\u{63}', '\u{63}')]), uni(&[('\u{45}', '\u{45}'), ('\u{65}', '\u{65}')]), uni(&[('\u{53}', '\u{53}'), ('\u{73}', '\u{73}'), ('\u{17f}', '\u{17f}')]), uni(&[('\u{53}', '\u{53}'), ('\u{73}', '\u{73}'), ('\u{17f}', '\u{17f}')]), rep(0, Some(1), true, uni(&[('\u{2d}', '\u{2e}'), ('\u{5f}', '\u{5f}')])), uni(&[('\u{4b}', '\u{4b}'), ('\u{6b}', '\u{6b}'), ('\u{212a}', '\u{212a}')]), uni(&[('\u{45}', '\u{45}'), ('\u{65}', '\u{65}')]), uni(&[('\u{59}', '\u{59}'), ('\u{79}', '\u{79}')])]), Hir::concat(vec![uni(&[('\u{41}', '\u{41}'), ('\u{61}', '\u{61}')]), uni(&[('\u{55}', '\u{55}'), ('\u{75}', '\u{75}')]), uni(&[('\u{54}', '\u{54}'), ('\u{74}', '\u{74}')]), uni(&[('\u{48}', '\u{48}'), ('\u{68}', '\u{68}')]), rep(0, Some(1), true, uni(&[('\u{2d}', '\u{2e}'), ('\u{5f}', '\u{5f}')])), uni(&[('\u{4b}', '\u{4b}'), ('\u{6b}', '\u{6b}'), ('\u{212a}', '\u{212a}')]), uni(&[('\u{45}', '\u{45}'), ('\u{65}', '\u{65}')]), uni(&[('\u{59}', '\u{59}'), ('\u{79}', '\u{79}')])]), Hir::concat(vec![uni(&[('\u{50}', '\u{50}'), ('\u{70}', '\u{70}')]), uni(&[('\u{52}', '\u{52}'), ('\u{72}', '\u{72}')]), uni(&[('\u{49}', '\u{49}'), ('\u{69}', '\u{69}')]), uni(&[('\u{56}', '\u{56}'), ('\u{76}', '\u{76}')]), uni(&[('\u{41}', '\u{41}'), ('\u{61}', '\u{61}')]), uni(&[('\u{54}', '\u{54}'), ('\u{74}', '\u{74}')]), uni(&[('\u{45}', '\u{45}'), ('\u{65}', '\u{65}')]), rep(0, Some(1), true, uni(&[('\u{2d}', '\u{2e}'), ('\u{5f}', '\u{5f}')])), uni(&[('\u{4b}', '\u{4b}'), ('\u{6b}', '\u{6b}'), ('\u{212a}', '\u{212a}')]), uni(&[('\u{45}', '\u{45}'), ('\u{65}', '\u{65}')]), uni(&[('\u{59}', '\u{59}'), ('\u{79}', '\u{79}')])]), Hir::concat(vec![uni(&[('\u{53}', '\u{53}'), ('\u{73}', '\u{73}'), ('\u{17f}', '\u{17f}')]), uni(&[('\u{49}', '\u{49}'), ('\u{69}', '\u{69}')]), uni(&[('\u{47}', '\u{47}'), ('\u{67}', '\u{67}')]), uni(&[('\u{4e}', '\u{4e}'), ('\u{6e}', '\u{6e}')]), uni(&[('\u{49}', '\u{49}'), ('\u{69}', '\u{69}')]), uni(&[('\u{4e}', '\u{4e}'), ('\u{6e}', '\u{6e}')]), uni(&[('\u{47}', '\u{47}'), ('\u{67}', '\u{67}')]), rep(0, Some(1), true, uni(&[('\u{2d}', '\u{2e}'), ('\u{5f}', '\u{5f}')])), uni(&[('\u{4b}', '\u{4b}'), ('\u{6b}', '\u{6b}'), ('\u{212a}', '\u{212a}')]), uni(&[('\u{45}', '\u{45}'), ('\u{65}', '\u{65}')]), uni(&[('\u{59}', '\u{59}'), ('\u{79}', '\u{79}')])]), Hir::concat(vec![uni(&[('\u{45}', '\u{45}'), ('\u{65}', '\u{65}')]), uni(&[('\u{4e}', '\u{4e}'), ('\u{6e}', '\u{6e}')]), uni(&[('\u{43}', '\u{43}'), ('\u{63}', '\u{63}')]), uni(&[('\u{52}', '\u{52}'), ('\u{72}', '\u{72}')]), uni(&[('\u{59}', '\u{59}'), ('\u{79}', '\u{79}')]), uni(&[('\u{50}', '\u{50}'), ('\u{70}', '\u{70}')]), uni(&[('\u{54}', '\u{54}'), ('\u{74}', '\u{74}')]), uni(&[('\u{49}', '\u{49}'), ('\u{69}', '\u{69}')]), uni(&[('\u{4f}', '\u{4f}'), ('\u{6f}', '\u{6f}')]), uni(&[('\u{4e}', '\u{4e}'), ('\u{6e}', '\u{6e}')]), rep(0, Some(1), true, uni(&[('\u{2d}', '\u{2e}'), ('\u{5f}', '\u{5f}')])), uni(&[('\u{4b}', '\u{4b}'), ('\u{6b}', '\u{6b}'), ('\u{212a}', '\u{212a}')]), uni(&[('\u{45}', '\u{45}'), ('\u{65}', '\u{65}')]), uni(&[('\u{59}', '\u{59}'), ('\u{79}', '\u{79}')])]), Hir::concat(vec![uni(&[('\u{4d}', '\u{4d}'), ('\u{6d}', '\u{6d}')]), uni(&[('\u{41}', '\u{41}'), ('\u{61}', '\u{61}')]), uni(&[('\u{53}', '\u{53}'), ('\u{73}', '\u{73}'), ('\u{17f}', '\u{17f}')]), uni(&[('\u{54}', '\u{54}'), ('\u{74}', '\u{74}')]), uni(&[('\u{45}', '\u{45}'), ('\u{65}', '\u{65}')]), uni(&[('\u{52}', '\u{52}'), ('\u{72}', '\u{72}')]), rep(0, Some(1), true, uni(&[('\u{2d}', '\u{2e}'), ('\u{5f}', '\u{5f}')])), uni(&[('\u{4b}', '\u{4b}'), ('\u{6b}', '\u{6b}'), ('\u{212a}', '\u{212a}')]), uni(&[('\u{45}', '\u{45}'), ('\u{65}', '\u{65}')]), uni(&[('\u{59}', '\u{59}'), ('\u{79}', '\u{79}')])]), Hir::concat(vec![uni(&[('\u{43}', '\u{43}'), ('\u{63}', '\u{63}')]), uni(&[('\u{52}', '\u{52}'), ('\u{72}', '\u{72}')]), uni(&[('\u{45}', '\u{45}'), ('\u{65}', '\u{65}')]), uni(&[('\u{44}', '\u{44}'), ('\u{64}', '\u{64}')]), uni(&[('\u{45}', '\u{45}'), ('\u{65}', '\u{65}')]), uni(&[('\u{4e}', '\u{4e}'), ('\u{6e}', '\u{6e}')]), uni(&[('\u{54}', '\u{54}'), ('\u{74}', '\u{74}')]), uni(&[('\u{49}', '\u{49}'), ('\u{69}', '\u{69}')]), uni(&[('\u{41}', '\u{41}'), ('\u{61}', '\u{61}')]), uni(&[('\u{4c}', '\u{4c}'), ('\u{6c}', '\u{6c}')]), rep(0, Some(1), true, uni(&[('\u{53}', '\u{53}'), ('\u{73}', '\u{73}'), ('\u{17f}', '\u{17f}')]))])]), rep(0, None, true, uni(&[('\u{2d}', '\u{2e}'), ('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{5f}', '\u{5f}'), ('\u{61}', '\u{7a}'), ('\u{17f}', '\u{17f}'), ('\u{212a}', '\u{212a}')]))]), Hir::concat(vec![uni(&[('\u{2d}', '\u{2e}'), ('\u{5f}', '\u{5f}')]), uni(&[('\u{4b}', '\u{4b}'), ('\u{6b}', '\u{6b}'), ('\u{212a}', '\u{212a}')]), uni(&[('\u{45}', '\u{45}'), ('\u{65}', '\u{65}')]), uni(&[('\u{59}', '\u{59}'), ('\u{79}', '\u{79}')])]), lit(b"Key")]), rep(0, Some(1), true, Hir::concat(vec![rep(0, Some(1), true, lit(b"\\")), uni(&[('\u{22}', '\u{22}'), ('\u{27}', '\u{27}')])])), rep(0, None, true, uni(&[('\u{9}', '\u{9}'), ('\u{20}', '\u{20}')])), Hir::alternation(vec![lit(b"=>"), lit(b":="), lit(b"="), lit(b":")]), rep(0, None, true, uni(&[('\u{9}', '\u{9}'), ('\u{20}', '\u{20}')])), Hir::alternation(vec![Hir::concat(vec![lit(b"\""), rep(12, None, true, uni(&[('\u{0}', '\u{9}'), ('\u{b}', '\u{c}'), ('\u{e}', '\u{21}'), ('\u{23}', '\u{10ffff}')])), lit(b"\"")]), Hir::concat(vec![lit(b"'"), rep(12, None, true, uni(&[('\u{0}', '\u{9}'), ('\u{b}', '\u{c}'), ('\u{e}', '\u{26}'), ('\u{28}', '\u{10ffff}')])), lit(b"'")]), Hir::concat(vec![lit(b"\\\""), rep(12, None, true, uni(&[('\u{0}', '\u{9}'), ('\u{b}', '\u{c}'), ('\u{e}', '\u{21}'), ('\u{23}', '\u{5b}'), ('\u{5d}', '\u{10ffff}')])), lit(b"\\\"")]), rep(12, None, true, uni(&[('\u{0}', '\u{8}'), ('\u{e}', '\u{1f}'), ('\u{21}', '\u{21}'), ('\u{23}', '\u{25}'), ('\u{28}', '\u{2b}'), ('\u{2d}', '\u{3a}'), ('\u{3c}', '\u{5b}'), ('\u{5d}', '\u{84}'), ('\u{86}', '\u{9f}'), ('\u{a1}', '\u{167f}'), ('\u{1681}', '\u{1fff}'), ('\u{200b}', '\u{2027}'), ('\u{202a}', '\u{202e}'), ('\u{2030}', '\u{205e}'), ('\u{2060}', '\u{2fff}'), ('\u{3001}', '\u{10ffff}')]))])]),
        tree: 0x9ef8d93cb2a752d7,
        plan: Plan {
            single_line: true,
            find: Find::Guard { literals: Literals::embedded(b"\x05-key\x09\x05-key \x06-key\"\x09\x06-key\" \x06-key\":\x06-key\"=\x06-key'\x09\x06-key' \x06-key':\x06-key'=\x05-key:\x05-key=\x07-key\\\"\x09\x07-key\\\" \x07-key\\\":\x07-key\\\"=\x07-key\\'\x09\x07-key\\' \x07-key\\':\x07-key\\'=\x07-\xe2\x84\xaaey\x09\x07-\xe2\x84\xaaey \x08-\xe2\x84\xaaey\"\x09\x08-\xe2\x84\xaaey\" \x08-\xe2\x84\xaaey\":\x08-\xe2\x84\xaaey\"=\x08-\xe2\x84\xaaey'\x09\x08-\xe2\x84\xaaey' \x08-\xe2\x84\xaaey':\x08-\xe2\x84\xaaey'=\x07-\xe2\x84\xaaey:\x07-\xe2\x84\xaaey=\x09-\xe2\x84\xaaey\\\"\x09\x09-\xe2\x84\xaaey\\\" \x09-\xe2\x84\xaaey\\\":\x09-\xe2\x84\xaaey\\\"=\x09-\xe2\x84\xaaey\\'\x09\x09-\xe2\x84\xaaey\\' \x09-\xe2\x84\xaaey\\':\x09-\xe2\x84\xaaey\\'=\x05.key\x09\x05.key \x06.key\"\x09\x06.key\" \x06.key\":\x06.key\"=\x06.key'\x09\x06.key' \x06.key':\x06.key'=\x05.key:\x05.key=\x07.key\\\"\x09\x07.key\\\" \x07.key\\\":\x07.key\\\"=\x07.key\\'\x09\x07.key\\' \x07.key\\':\x07.key\\'=\x07.\xe2\x84\xaaey\x09\x07.\xe2\x84\xaaey \x08.\xe2\x84\xaaey\"\x09\x08.\xe2\x84\xaaey\" \x08.\xe2\x84\xaaey\":\x08.\xe2\x84\xaaey\"=\x08.\xe2\x84\xaaey'\x09\x08.\xe2\x84\xaaey' \x08.\xe2\x84\xaaey':\x08.\xe2\x84\xaaey'=\x07.\xe2\x84\xaaey:\x07.\xe2\x84\xaaey=\x09.\xe2\x84\xaaey\\\"\x09\x09.\xe2\x84\xaaey\\\" \x09.\xe2\x84\xaaey\\\":\x09.\xe2\x84\xaaey\\\"=\x09.\xe2\x84\xaaey\\'\x09\x09.\xe2\x84\xaaey\\' \x09.\xe2\x84\xaaey\\':\x09.\xe2\x84\xaaey\\'=\x05_key\x09\x05_key \x06_key\"\x09\x06_key\" \x06_key\":\x06_key\"=\x06_key'\x09\x06_key' \x06_key':\x06_key'=\x05_key:\x05_key=\x07_key\\\"\x09\x07_key\\\" \x07_key\\\":\x07_key\\\"=\x07_key\\'\x09\x07_key\\' \x07_key\\':\x07_key\\'=\x07_\xe2\x84\xaaey\x09\x07_\xe2\x84\xaaey \x08_\xe2\x84\xaaey\"\x09\x08_\xe2\x84\xaaey\" \x08_\xe2\x84\xaaey\":\x08_\xe2\x84\xaaey\"=\x08_\xe2\x84\xaaey'\x09\x08_\xe2\x84\xaaey' \x08_\xe2\x84\xaaey':\x08_\xe2\x84\xaaey'=\x07_\xe2\x84\xaaey:\x07_\xe2\x84\xaaey=\x09_\xe2\x84\xaaey\\\"\x09\x09_\xe2\x84\xaaey\\\" \x09_\xe2\x84\xaaey\\\":\x09_\xe2\x84\xaaey\\\"=\x09_\xe2\x84\xaaey\\'\x09\x09_\xe2\x84\xaaey\\' \x09_\xe2\x84\xaaey\\':\x09_\xe2\x84\xaaey\\'=\x0aaccess-key\x0caccess-\xe2\x84\xaaey\x0aaccess.key\x0caccess.\xe2\x84\xaaey\x0aaccess_key\x0caccess_\xe2\x84\xaaey\x09accesskey\x0baccess\xe2\x84\xaaey\x0bacces\xc5\xbf-key\x0dacces\xc5\xbf-\xe2\x84\xaaey\x0bacces\xc5\xbf.key\x0dacces\xc5\xbf.\xe2\x84\xaaey\x0bacces\xc5\xbf_key\x0dacces\xc5\xbf_\xe2\x84\xaaey\x0aacces\xc5\xbfkey\x0cacces\xc5\xbf\xe2\x84\xaaey\x0bacce\xc5\xbfs-key\x0dacce\xc5\xbfs-\xe2\x84\xaaey\x0bacce\xc5\xbfs.key\x0dacce\xc5\xbfs.\xe2\x84\xaaey\x0bacce\xc5\xbfs_key\x0dacce\xc5\xbfs_\xe2\x84\xaaey\x0aacce\xc5\xbfskey\x0cacce\xc5\xbfs\xe2\x84\xaaey\x0cacce\xc5\xbf\xc5\xbf-key\x0eacce\xc5\xbf\xc5\xbf-\xe2\x84\xaaey\x0cacce\xc5\xbf\xc5\xbf.key\x0eacce\xc5\xbf\xc5\xbf.\xe2\x84\xaaey\x0cacce\xc5\xbf\xc5\xbf_key\x0eacce\xc5\xbf\xc5\xbf_\xe2\x84\xaaey\x0bacce\xc5\xbf\xc5\xbfkey\x0dacce\xc5\xbf\xc5\xbf\xe2\x84\xaaey\x07api-key\x09api-\xe2\x84\xaaey\x07api.key\x09api.\xe2\x84\xaaey\x07api_key\x09api_\xe2\x84\xaaey\x06apikey\x08api\xe2\x84\xaaey\x08auth-key\x0aauth-\xe2\x84\xaaey\x08auth.key\x0aauth.\xe2\x84\xaaey\x08auth_key\x0aauth_\xe2\x84\xaaey\x07authkey\x09auth\xe2\x84\xaaey\x0acredential\x0eencryption-key\x10encryption-\xe2\x84\xaaey\x0eencryption.key\x10encryption.\xe2\x84\xaaey\x0eencryption_key\x10encryption_\xe2\x84\xaaey\x0dencryptionkey\x0fencryption\xe2\x84\xaaey\x04key\x09\x04key \x05key\"\x09\x05key\" \x05key\":\x05key\"=\x05key'\x09\x05key' \x05key':\x05key'=\x04key:\x04key=\x06key\\\"\x09\x06key\\\" \x06key\\\":\x06key\\\"=\x06key\\'\x09\x06key\\' \x06key\\':\x06key\\'=\x0amaster-key\x0cmaster-\xe2\x84\xaaey\x0amaster.key\x0cmaster.\xe2\x84\xaaey\x0amaster_key\x0cmaster_\xe2\x84\xaaey\x09masterkey\x0bmaster\xe2\x84\xaaey\x0bma\xc5\xbfter-key\x0dma\xc5\xbfter-\xe2\x84\xaaey\x0bma\xc5\xbfter.key\x0dma\xc5\xbfter.\xe2\x84\xaaey\x0bma\xc5\xbfter_key\x0dma\xc5\xbfter_\xe2\x84\xaaey\x0ama\xc5\xbfterkey\x0cma\xc5\xbfter\xe2\x84\xaaey\x0bprivate-key\x0dprivate-\xe2\x84\xaaey\x0bprivate.key\x0dprivate.\xe2\x84\xaaey\x0bprivate_key\x0dprivate_\xe2\x84\xaaey\x0aprivatekey\x0cprivate\xe2\x84\xaaey\x06secret\x0bsigning-key\x0dsigning-\xe2\x84\xaaey\x0bsigning.key\x0dsigning.\xe2\x84\xaaey\x0bsigning_key\x0dsigning_\xe2\x84\xaaey\x0asigningkey\x0csigning\xe2\x84\xaaey\x05token\x07to\xe2\x84\xaaen\x07\xc5\xbfecret\x0c\xc5\xbfigning-key\x0e\xc5\xbfigning-\xe2\x84\xaaey\x0c\xc5\xbfigning.key\x0e\xc5\xbfigning.\xe2\x84\xaaey\x0c\xc5\xbfigning_key\x0e\xc5\xbfigning_\xe2\x84\xaaey\x0b\xc5\xbfigningkey\x0d\xc5\xbfigning\xe2\x84\xaaey"), split: 1, lead: false, head: Some(Cow::Borrowed(&[('\u{2d}', '\u{2e}'), ('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{5f}', '\u{5f}'), ('\u{61}', '\u{7a}'), ('\u{17f}', '\u{17f}'), ('\u{212a}', '\u{212a}')])), single_head: true },
        },
    },
    Embedded {
        id: "xml_credential",
        source: 0x1c45719679efec8c,
        hir: || Hir::concat(vec![Hir::alternation(vec![Hir::concat(vec![uni(&[('\u{4b}', '\u{4b}'), ('\u{6b}', '\u{6b}'), ('\u{212a}', '\u{212a}')]), uni(&[('\u{45}', '\u{45}'), ('\u{65}', '\u{65}')]), uni(&[('\u{59}', '\u{59}'), ('\u{79}', '\u{79}')])]), Hir::concat(vec![uni(&[('\u{4e}', '\u{4e}'), ('\u{6e}', '\u{6e}')]), uni(&[('\u{41}', '\u{41}'), ('\u{61}', '\u{61}')]), uni(&[('\u{4d}', '\u{4d}'), ('\u{6d}', '\u{6d}')]), uni(&[('\u{45}', '\u{45}'), ('\u{65}', '\u{65}')])])]), lit(b"="), uni(&[('\u{22}', '\u{22}'), ('\u{27}', '\u{27}')]), rep(1, Some(64), true, uni(&[('\u{0}', '\u{9}'), ('\u{b}', '\u{c}'), ('\u{e}', '\u{21}'), ('\u{23}', '\u{26}'), ('\u{28}', '\u{3b}'), ('\u{3d}', '\u{3d}'), ('\u{3f}', '\u{10ffff}')])), uni(&[('\u{22}', '\u{22}'), ('\u{27}', '\u{27}')]), rep(1, None, true, uni(&[('\u{9}', '\u{9}'), ('\u{20}', '\u{20}')])), uni(&[('\u{56}', '\u{56}'), ('\u{76}', '\u{76}')]), uni(&[('\u{41}', '\u{41}'), ('\u{61}', '\u{61}')]), uni(&[('\u{4c}', '\u{4c}'), ('\u{6c}', '\u{6c}')]), uni(&[('\u{55}', '\u{55}'), ('\u{75}', '\u{75}')]), uni(&[('\u{45}', '\u{45}'), ('\u{65}', '\u{65}')]), lit(b"="), uni(&[('\u{22}', '\u{22}'), ('\u{27}', '\u{27}')]), rep(6, None, true, uni(&[('\u{0}', '\u{9}'), ('\u{b}', '\u{c}'), ('\u{e}', '\u{21}'), ('\u{23}', '\u{26}'), ('\u{28}', '\u{10ffff}')]))]),
        tree: 0x4f2fa2ee9cd86ccf,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x05key=\"\x05key='\x06name=\"\x06name='\x07\xe2\x84\xaaey=\"\x07\xe2\x84\xaaey='"), folded: true },
        },
    },
    Embedded {
        id: "xml_credential",
        source: 0x1c45719679efec8c,
        hir: || Hir::concat(vec![rep(0, None, true, uni(&[('\u{2d}', '\u{2e}'), ('\u{30}', '\u{3a}'), ('\u{3c}', '\u{3c}'), ('\u{41}', '\u{5a}'), ('\u{5f}', '\u{5f}'), ('\u{61}', '\u{7a}'), ('\u{17f}', '\u{17f}'), ('\u{212a}', '\u{212a}')])), Hir::alternation(vec![Hir::concat(vec![uni(&[('\u{50}', '\u{50}'), ('\u{70}', '\u{70}')]), uni(&[('\u{41}', '\u{41}'), ('\u{61}', '\u{61}')]), uni(&[('\u{53}', '\u{53}'), ('\u{73}', '\u{73}'), ('\u{17f}', '\u{17f}')]), uni(&[('\u{53}', '\u{53}'), ('\u{73}', '\u{73}'), ('\u{17f}', '\u{17f}')]), rep(0, Some(1), true, Hir::alternation(vec![Hir::concat(vec![uni(&[('\u{57}', '\u{57}'), ('\u{77}', '\u{77}')]), uni(&[('\u{4f}', '\u{4f}'), ('\u{6f}', '\u{6f}')]), uni(&[('\u{52}', '\u{52}'), ('\u{72}', '\u{72}')]), uni(&[('\u{44}', '\u{44}'), ('\u{64}', '\u{64}')])]), Hir::concat(vec![uni(&[('\u{57}', '\u{57}'), ('\u{77}', '\u{77}')]), uni(&[('\u{44}', '\u{44}'), ('\u{64}', '\u{64}')])]), Hir::concat(vec![uni(&[('\u{50}', '\u{50}'), ('\u{70}', '\u{70}')]), uni(&[('\u{48}', '\u{48}'), ('\u{68}', '\u{68}')]), uni(&[('\u{52}', '\u{52}'), ('\u{72}', '\u{72}')]), uni(&[('\u{41}', '\u{41}'), ('\u{61}', '\u{61}')]), uni(&[('\u{53}', '\u{53}'), ('\u{73}', '\u{73}'), ('\u{17f}', '\u{17f}')]), uni(&[('\u{45}', '\u{45}'), ('\u{65}', '\u{65}')])])]))]), Hir::concat(vec![uni(&[('\u{50}', '\u{50}'), ('\u{70}', '\u{70}')]), uni(&[('\u{57}', '\u{57}'), ('\u{77}', '\u{77}')]), uni(&[('\u{44}', '\u{44}'), ('\u{64}', '\u{64}')])]), Hir::concat(vec![uni(&[('\u{53}', '\u{53}'), ('\u{73}', '\u{73}'), ('\u{17f}', '\u{17f}')]), uni(&[('\u{45}', '\u{45}'), ('\u{65}', '\u{65}')]), uni(&[('\u{43}', '\u{43}'), ('\u{63}', '\u{63}')]), uni(&[('\u{52}', '\u{52}'), ('\u{72}', '\u{72}')]), uni(&[('\u{45}', '\u{45}'), ('\u{65}', '\u{65}')]), uni(&[('\u{54}', '\u{54}'), ('\u{74}', '\u{74}')])]), Hir::concat(vec![uni(&[('\u{54}', '\u{54}'), ('\u{74}', '\u{74}')]), uni(&[('\u{4f}', '\u{4f}'), ('\u{6f}', '\u{6f}')]), uni(&[('\u{4b}', '\u{4b}'), ('\u{6b}', '\u{6b}'), ('\u{212a}', '\u{212a}')]), uni(&[('\u{45}', '\u{45}'), ('\u{65}', '\u{65}')]), uni(&[('\u{4e}', '\u{4e}'), ('\u{6e}', '\u{6e}')])]), Hir::concat(vec![uni(&[('\u{4b}', '\u{4b}'), ('\u{6b}', '\u{6b}'), ('\u{212a}', '\u{212a}')]), uni(&[('\u{45}', '\u{45}'), ('\u{65}', '\u{65}')]), uni(&[('\u{59}', '\u{59}'), ('\u{79}', '\u{79}')])]), Hir::concat(vec![uni(&[('\u{43}', '\u{43}'), ('\u{63}', '\u{63}')]), uni(&[('\u{52}', '\u{52}'), ('\u{72}', '\u{72}')]), uni(&[('\u{45}', '\u{45}'), ('\u{65}', '\u{65}')]), uni(&[('\u{44}', '\u{44}'), ('\u{64}', '\u{64}')]), uni(&[('\u{45}', '\u{45}'), ('\u{65}', '\u{65}')]), uni(&[('\u{4e}', '\u{4e}'), ('\u{6e}', '\u{6e}')]), uni(&[('\u{54}', '\u{54}'), ('\u{74}', '\u{74}')]), uni(&[('\u{49}', '\u{49}'), ('\u{69}', '\u{69}')]), uni(&[('\u{41}', '\u{41}'), ('\u{61}', '\u{61}')]), uni(&[('\u{4c}', '\u{4c}'), ('\u{6c}', '\u{6c}')]), rep(0, Some(1), true, uni(&[('\u{53}', '\u{53}'), ('\u{73}', '\u{73}'), ('\u{17f}', '\u{17f}')]))])]), lit(b">"), rep(6, None, true, uni(&[('\u{0}', '\u{8}'), ('\u{e}', '\u{1f}'), ('\u{21}', '\u{3b}'), ('\u{3d}', '\u{84}'), ('\u{86}', '\u{9f}'), ('\u{a1}', '\u{167f}'), ('\u{1681}', '\u{1fff}'), ('\u{200b}', '\u{2027}'), ('\u{202a}', '\u{202e}'), ('\u{2030}', '\u{205e}'), ('\u{2060}', '\u{2fff}'), ('\u{3001}', '\u{10ffff}')])), lit(b"</")]),
        tree: 0x9d5a51a1a7636fcf,
        plan: Plan {
            single_line: true,
            find: Find::Guard { literals: Literals::embedded(b"\x0bcredential>\x0ccredentials>\x0dcredential\xc5\xbf>\x04key>\x05pass>\x0bpassphrase>\x0cpassphra\xc5\xbfe>\x07passwd>\x09password>\x06pas\xc5\xbf>\x0cpas\xc5\xbfphrase>\x0dpas\xc5\xbfphra\xc5\xbfe>\x08pas\xc5\xbfwd>\x0apas\xc5\xbfword>\x06pa\xc5\xbfs>\x0cpa\xc5\xbfsphrase>\x0dpa\xc5\xbfsphra\xc5\xbfe>\x08pa\xc5\xbfswd>\x0apa\xc5\xbfsword>\x07pa\xc5\xbf\xc5\xbf>\x0dpa\xc5\xbf\xc5\xbfphrase>\x0epa\xc5\xbf\xc5\xbfphra\xc5\xbfe>\x09pa\xc5\xbf\xc5\xbfwd>\x0bpa\xc5\xbf\xc5\xbfword>\x04pwd>\x07secret>\x06token>\x08to\xe2\x84\xaaen>\x08\xc5\xbfecret>\x06\xe2\x84\xaaey>"), split: 1, lead: false, head: Some(Cow::Borrowed(&[('\u{2d}', '\u{2e}'), ('\u{30}', '\u{3a}'), ('\u{3c}', '\u{3c}'), ('\u{41}', '\u{5a}'), ('\u{5f}', '\u{5f}'), ('\u{61}', '\u{7a}'), ('\u{17f}', '\u{17f}'), ('\u{212a}', '\u{212a}')])), single_head: true },
        },
    },
    Embedded {
        id: "credential_argument",
        source: 0xd1ea66a2e9920982,
        hir: || Hir::concat(vec![rep(0, None, true, uni(&[('\u{2d}', '\u{2d}'), ('\u{30}', '\u{39}'), ('\u{61}', '\u{7a}')])), lit(b"-"), Hir::alternation(vec![lit(b"password"), lit(b"passwd"), lit(b"pass"), lit(b"pwd"), lit(b"passphrase"), lit(b"token"), lit(b"secret"), lit(b"api-key"), lit(b"apikey"), lit(b"access-key"), lit(b"secret-key"), lit(b"client-secret"), lit(b"auth-token")]), rep(1, None, true, uni(&[('\u{9}', '\u{9}'), ('\u{20}', '\u{20}')])), Hir::alternation(vec![Hir::concat(vec![lit(b"\""), rep(4, None, true, uni(&[('\u{0}', '\u{9}'), ('\u{b}', '\u{c}'), ('\u{e}', '\u{21}'), ('\u{23}', '\u{10ffff}')])), lit(b"\"")]), Hir::concat(vec![lit(b"'"), rep(4, None, true, uni(&[('\u{0}', '\u{9}'), ('\u{b}', '\u{c}'), ('\u{e}', '\u{26}'), ('\u{28}', '\u{10ffff}')])), lit(b"'")]), Hir::concat(vec![uni(&[('\u{0}', '\u{8}'), ('\u{e}', '\u{1f}'), ('\u{21}', '\u{21}'), ('\u{23}', '\u{25}'), ('\u{28}', '\u{2c}'), ('\u{2e}', '\u{3a}'), ('\u{3d}', '\u{3d}'), ('\u{3f}', '\u{7b}'), ('\u{7d}', '\u{84}'), ('\u{86}', '\u{9f}'), ('\u{a1}', '\u{167f}'), ('\u{1681}', '\u{1fff}'), ('\u{200b}', '\u{2027}'), ('\u{202a}', '\u{202e}'), ('\u{2030}', '\u{205e}'), ('\u{2060}', '\u{2fff}'), ('\u{3001}', '\u{10ffff}')]), rep(3, None, true, uni(&[('\u{0}', '\u{8}'), ('\u{e}', '\u{1f}'), ('\u{21}', '\u{21}'), ('\u{23}', '\u{25}'), ('\u{28}', '\u{3a}'), ('\u{3d}', '\u{3d}'), ('\u{3f}', '\u{7b}'), ('\u{7d}', '\u{84}'), ('\u{86}', '\u{9f}'), ('\u{a1}', '\u{167f}'), ('\u{1681}', '\u{1fff}'), ('\u{200b}', '\u{2027}'), ('\u{202a}', '\u{202e}'), ('\u{2030}', '\u{205e}'), ('\u{2060}', '\u{2fff}'), ('\u{3001}', '\u{10ffff}')]))])])]),
        tree: 0xb2dd9cfc8d2c57b3,
        plan: Plan {
            single_line: true,
            find: Find::Guard { literals: Literals::embedded(b"\x0c-access-key\x09\x0c-access-key \x09-api-key\x09\x09-api-key \x08-apikey\x09\x08-apikey \x0c-auth-token\x09\x0c-auth-token \x0f-client-secret\x09\x0f-client-secret \x06-pass\x09\x06-pass \x0c-passphrase\x09\x0c-passphrase \x08-passwd\x09\x08-passwd \x0a-password\x09\x0a-password \x05-pwd\x09\x05-pwd \x08-secret\x09\x08-secret \x0c-secret-key\x09\x0c-secret-key \x07-token\x09\x07-token "), split: 1, lead: false, head: Some(Cow::Borrowed(&[('\u{2d}', '\u{2d}'), ('\u{30}', '\u{39}'), ('\u{61}', '\u{7a}')])), single_head: true },
        },
    },
    Embedded {
        id: "credential_argument",
        source: 0xd1ea66a2e9920982,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), Hir::alternation(vec![lit(b"mysql"), lit(b"mysqldump"), lit(b"mysqladmin"), lit(b"mysqlimport"), lit(b"mysqlshow"), lit(b"mysqlcheck"), lit(b"mysqlslap"), lit(b"mariadb"), lit(b"mariadb-dump"), lit(b"mariadb-admin")]), Hir::look(Look::WordUnicode), rep(0, None, false, uni(&[('\u{0}', '\u{9}'), ('\u{b}', '\u{c}'), ('\u{e}', '\u{25}'), ('\u{27}', '\u{3a}'), ('\u{3c}', '\u{7b}'), ('\u{7d}', '\u{10ffff}')])), uni(&[('\u{9}', '\u{9}'), ('\u{20}', '\u{20}')]), lit(b"-p"), Hir::alternation(vec![Hir::concat(vec![lit(b"\""), rep(4, None, true, uni(&[('\u{0}', '\u{9}'), ('\u{b}', '\u{c}'), ('\u{e}', '\u{21}'), ('\u{23}', '\u{10ffff}')])), lit(b"\"")]), Hir::concat(vec![lit(b"'"), rep(4, None, true, uni(&[('\u{0}', '\u{9}'), ('\u{b}', '\u{c}'), ('\u{e}', '\u{26}'), ('\u{28}', '\u{10ffff}')])), lit(b"'")]), Hir::concat(vec![uni(&[('\u{0}', '\u{8}'), ('\u{e}', '\u{1f}'), ('\u{21}', '\u{21}'), ('\u{23}', '\u{25}'), ('\u{28}', '\u{2c}'), ('\u{2e}', '\u{3a}'), ('\u{3d}', '\u{3d}'), ('\u{3f}', '\u{7b}'), ('\u{7d}', '\u{84}'), ('\u{86}', '\u{9f}'), ('\u{a1}', '\u{167f}'), ('\u{1681}', '\u{1fff}'), ('\u{200b}', '\u{2027}'), ('\u{202a}', '\u{202e}'), ('\u{2030}', '\u{205e}'), ('\u{2060}', '\u{2fff}'), ('\u{3001}', '\u{10ffff}')]), rep(3, None, true, uni(&[('\u{0}', '\u{8}'), ('\u{e}', '\u{1f}'), ('\u{21}', '\u{21}'), ('\u{23}', '\u{25}'), ('\u{28}', '\u{3a}'), ('\u{3d}', '\u{3d}'), ('\u{3f}', '\u{7b}'), ('\u{7d}', '\u{84}'), ('\u{86}', '\u{9f}'), ('\u{a1}', '\u{167f}'), ('\u{1681}', '\u{1fff}'), ('\u{200b}', '\u{2027}'), ('\u{202a}', '\u{202e}'), ('\u{2030}', '\u{205e}'), ('\u{2060}', '\u{2fff}'), ('\u{3001}', '\u{10ffff}')]))])])]),
        tree: 0x1e90451876ec0539,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x07mariadb\x05mysql"), folded: true },
        },
    },
    Embedded {
        id: "credential_argument",
        source: 0xd1ea66a2e9920982,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"7z"), Hir::alternation(vec![Hir::concat(vec![uni(&[('\u{9}', '\u{9}'), ('\u{20}', '\u{20}')]), uni(&[('\u{61}', '\u{62}'), ('\u{64}', '\u{65}'), ('\u{68}', '\u{69}'), ('\u{6c}', '\u{6c}'), ('\u{72}', '\u{72}'), ('\u{74}', '\u{75}'), ('\u{78}', '\u{78}')]), rep(0, None, false, uni(&[('\u{0}', '\u{9}'), ('\u{b}', '\u{c}'), ('\u{e}', '\u{25}'), ('\u{27}', '\u{3a}'), ('\u{3c}', '\u{7b}'), ('\u{7d}', '\u{10ffff}')])), uni(&[('\u{9}', '\u{9}'), ('\u{20}', '\u{20}')])]), uni(&[('\u{9}', '\u{9}'), ('\u{20}', '\u{20}')]), Hir::concat(vec![uni(&[('\u{61}', '\u{61}'), ('\u{72}', '\u{72}')]), uni(&[('\u{9}', '\u{9}'), ('\u{20}', '\u{20}')]), rep(0, Some(1), true, Hir::concat(vec![rep(0, None, false, uni(&[('\u{0}', '\u{9}'), ('\u{b}', '\u{c}'), ('\u{e}', '\u{25}'), ('\u{27}', '\u{3a}'), ('\u{3c}', '\u{7b}'), ('\u{7d}', '\u{10ffff}')])), uni(&[('\u{9}', '\u{9}'), ('\u{20}', '\u{20}')])]))])]), lit(b"-p"), Hir::alternation(vec![Hir::concat(vec![lit(b"\""), rep(4, None, true, uni(&[('\u{0}', '\u{9}'), ('\u{b}', '\u{c}'), ('\u{e}', '\u{21}'), ('\u{23}', '\u{10ffff}')])), lit(b"\"")]), Hir::concat(vec![lit(b"'"), rep(4, None, true, uni(&[('\u{0}', '\u{9}'), ('\u{b}', '\u{c}'), ('\u{e}', '\u{26}'), ('\u{28}', '\u{10ffff}')])), lit(b"'")]), Hir::concat(vec![uni(&[('\u{0}', '\u{8}'), ('\u{e}', '\u{1f}'), ('\u{21}', '\u{21}'), ('\u{23}', '\u{25}'), ('\u{28}', '\u{2c}'), ('\u{2e}', '\u{3a}'), ('\u{3d}', '\u{3d}'), ('\u{3f}', '\u{7b}'), ('\u{7d}', '\u{84}'), ('\u{86}', '\u{9f}'), ('\u{a1}', '\u{167f}'), ('\u{1681}', '\u{1fff}'), ('\u{200b}', '\u{2027}'), ('\u{202a}', '\u{202e}'), ('\u{2030}', '\u{205e}'), ('\u{2060}', '\u{2fff}'), ('\u{3001}', '\u{10ffff}')]), rep(3, None, true, uni(&[('\u{0}', '\u{8}'), ('\u{e}', '\u{1f}'), ('\u{21}', '\u{21}'), ('\u{23}', '\u{25}'), ('\u{28}', '\u{3a}'), ('\u{3d}', '\u{3d}'), ('\u{3f}', '\u{7b}'), ('\u{7d}', '\u{84}'), ('\u{86}', '\u{9f}'), ('\u{a1}', '\u{167f}'), ('\u{1681}', '\u{1fff}'), ('\u{200b}', '\u{2027}'), ('\u{202a}', '\u{202e}'), ('\u{2030}', '\u{205e}'), ('\u{2060}', '\u{2fff}'), ('\u{3001}', '\u{10ffff}')]))])])]),
        tree: 0x8467a18e2e552b72,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x057z\x09-p\x047z\x09a\x047z\x09b\x047z\x09d\x047z\x09e\x047z\x09h\x047z\x09i\x047z\x09l\x047z\x09r\x047z\x09t\x047z\x09u\x047z\x09x\x057z -p\x047z a\x047z b\x047z d\x047z e\x047z h\x047z i\x047z l\x047z r\x047z t\x047z u\x047z x\x047za\x09\x047za \x047zr\x09\x047zr "), folded: false },
        },
    },
    Embedded {
        id: "credential_argument",
        source: 0xd1ea66a2e9920982,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"login"), Hir::look(Look::WordUnicode), rep(0, None, false, uni(&[('\u{0}', '\u{9}'), ('\u{b}', '\u{c}'), ('\u{e}', '\u{25}'), ('\u{27}', '\u{3a}'), ('\u{3c}', '\u{7b}'), ('\u{7d}', '\u{10ffff}')])), uni(&[('\u{9}', '\u{9}'), ('\u{20}', '\u{20}')]), lit(b"-p"), rep(1, None, true, uni(&[('\u{9}', '\u{9}'), ('\u{20}', '\u{20}')])), Hir::alternation(vec![Hir::concat(vec![lit(b"\""), rep(4, None, true, uni(&[('\u{0}', '\u{9}'), ('\u{b}', '\u{c}'), ('\u{e}', '\u{21}'), ('\u{23}', '\u{10ffff}')])), lit(b"\"")]), Hir::concat(vec![lit(b"'"), rep(4, None, true, uni(&[('\u{0}', '\u{9}'), ('\u{b}', '\u{c}'), ('\u{e}', '\u{26}'), ('\u{28}', '\u{10ffff}')])), lit(b"'")]), Hir::concat(vec![uni(&[('\u{0}', '\u{8}'), ('\u{e}', '\u{1f}'), ('\u{21}', '\u{21}'), ('\u{23}', '\u{25}'), ('\u{28}', '\u{2c}'), ('\u{2e}', '\u{3a}'), ('\u{3d}', '\u{3d}'), ('\u{3f}', '\u{7b}'), ('\u{7d}', '\u{84}'), ('\u{86}', '\u{9f}'), ('\u{a1}', '\u{167f}'), ('\u{1681}', '\u{1fff}'), ('\u{200b}', '\u{2027}'), ('\u{202a}', '\u{202e}'), ('\u{2030}', '\u{205e}'), ('\u{2060}', '\u{2fff}'), ('\u{3001}', '\u{10ffff}')]), rep(3, None, true, uni(&[('\u{0}', '\u{8}'), ('\u{e}', '\u{1f}'), ('\u{21}', '\u{21}'), ('\u{23}', '\u{25}'), ('\u{28}', '\u{3a}'), ('\u{3d}', '\u{3d}'), ('\u{3f}', '\u{7b}'), ('\u{7d}', '\u{84}'), ('\u{86}', '\u{9f}'), ('\u{a1}', '\u{167f}'), ('\u{1681}', '\u{1fff}'), ('\u{200b}', '\u{2027}'), ('\u{202a}', '\u{202e}'), ('\u{2030}', '\u{205e}'), ('\u{2060}', '\u{2fff}'), ('\u{3001}', '\u{10ffff}')]))])])]),
        tree: 0xa1f5b590cfc53c9d,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x05login"), folded: false },
        },
    },
    Embedded {
        id: "credential_argument",
        source: 0xd1ea66a2e9920982,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"sshpass"), rep(1, None, true, uni(&[('\u{9}', '\u{9}'), ('\u{20}', '\u{20}')])), lit(b"-p"), rep(0, None, true, uni(&[('\u{9}', '\u{9}'), ('\u{20}', '\u{20}')])), Hir::alternation(vec![Hir::concat(vec![lit(b"\""), rep(4, None, true, uni(&[('\u{0}', '\u{9}'), ('\u{b}', '\u{c}'), ('\u{e}', '\u{21}'), ('\u{23}', '\u{10ffff}')])), lit(b"\"")]), Hir::concat(vec![lit(b"'"), rep(4, None, true, uni(&[('\u{0}', '\u{9}'), ('\u{b}', '\u{c}'), ('\u{e}', '\u{26}'), ('\u{28}', '\u{10ffff}')])), lit(b"'")]), Hir::concat(vec![uni(&[('\u{0}', '\u{8}'), ('\u{e}', '\u{1f}'), ('\u{21}', '\u{21}'), ('\u{23}', '\u{25}'), ('\u{28}', '\u{2c}'), ('\u{2e}', '\u{3a}'), ('\u{3d}', '\u{3d}'), ('\u{3f}', '\u{7b}'), ('\u{7d}', '\u{84}'), ('\u{86}', '\u{9f}'), ('\u{a1}', '\u{167f}'), ('\u{1681}', '\u{1fff}'), ('\u{200b}', '\u{2027}'), ('\u{202a}', '\u{202e}'), ('\u{2030}', '\u{205e}'), ('\u{2060}', '\u{2fff}'), ('\u{3001}', '\u{10ffff}')]), rep(3, None, true, uni(&[('\u{0}', '\u{8}'), ('\u{e}', '\u{1f}'), ('\u{21}', '\u{21}'), ('\u{23}', '\u{25}'), ('\u{28}', '\u{3a}'), ('\u{3d}', '\u{3d}'), ('\u{3f}', '\u{7b}'), ('\u{7d}', '\u{84}'), ('\u{86}', '\u{9f}'), ('\u{a1}', '\u{167f}'), ('\u{1681}', '\u{1fff}'), ('\u{200b}', '\u{2027}'), ('\u{202a}', '\u{202e}'), ('\u{2030}', '\u{205e}'), ('\u{2060}', '\u{2fff}'), ('\u{3001}', '\u{10ffff}')]))])])]),
        tree: 0xbb19736adc695c48,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x08sshpass\x09\x08sshpass "), folded: false },
        },
    },
    Embedded {
        id: "credential_argument",
        source: 0xd1ea66a2e9920982,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), Hir::alternation(vec![lit(b"curl"), lit(b"wget")]), Hir::look(Look::WordUnicode), rep(0, None, false, uni(&[('\u{0}', '\u{9}'), ('\u{b}', '\u{c}'), ('\u{e}', '\u{25}'), ('\u{27}', '\u{3a}'), ('\u{3c}', '\u{7b}'), ('\u{7d}', '\u{10ffff}')])), uni(&[('\u{9}', '\u{9}'), ('\u{20}', '\u{20}')]), Hir::alternation(vec![lit(b"-u"), lit(b"--user")]), Hir::alternation(vec![rep(1, None, true, uni(&[('\u{9}', '\u{9}'), ('\u{20}', '\u{20}')])), lit(b"=")]), Hir::alternation(vec![Hir::concat(vec![lit(b"\""), rep(0, None, true, uni(&[('\u{0}', '\u{9}'), ('\u{b}', '\u{c}'), ('\u{e}', '\u{21}'), ('\u{23}', '\u{39}'), ('\u{3b}', '\u{10ffff}')])), lit(b":"), rep(4, None, true, uni(&[('\u{0}', '\u{9}'), ('\u{b}', '\u{c}'), ('\u{e}', '\u{21}'), ('\u{23}', '\u{10ffff}')])), lit(b"\"")]), Hir::concat(vec![lit(b"'"), rep(0, None, true, uni(&[('\u{0}', '\u{9}'), ('\u{b}', '\u{c}'), ('\u{e}', '\u{26}'), ('\u{28}', '\u{39}'), ('\u{3b}', '\u{10ffff}')])), lit(b":"), rep(4, None, true, uni(&[('\u{0}', '\u{9}'), ('\u{b}', '\u{c}'), ('\u{e}', '\u{26}'), ('\u{28}', '\u{10ffff}')])), lit(b"'")]), Hir::concat(vec![rep(0, None, true, uni(&[('\u{0}', '\u{8}'), ('\u{e}', '\u{1f}'), ('\u{21}', '\u{21}'), ('\u{23}', '\u{25}'), ('\u{28}', '\u{39}'), ('\u{3d}', '\u{3d}'), ('\u{3f}', '\u{7b}'), ('\u{7d}', '\u{84}'), ('\u{86}', '\u{9f}'), ('\u{a1}', '\u{167f}'), ('\u{1681}', '\u{1fff}'), ('\u{200b}', '\u{2027}'), ('\u{202a}', '\u{202e}'), ('\u{2030}', '\u{205e}'), ('\u{2060}', '\u{2fff}'), ('\u{3001}', '\u{10ffff}')])), lit(b":"), rep(4, None, true, uni(&[('\u{0}', '\u{8}'), ('\u{e}', '\u{1f}'), ('\u{21}', '\u{21}'), ('\u{23}', '\u{25}'), ('\u{28}', '\u{3a}'), ('\u{3d}', '\u{3d}'), ('\u{3f}', '\u{7b}'), ('\u{7d}', '\u{84}'), ('\u{86}', '\u{9f}'), ('\u{a1}', '\u{167f}'), ('\u{1681}', '\u{1fff}'), ('\u{200b}', '\u{2027}'), ('\u{202a}', '\u{202e}'), ('\u{2030}', '\u{205e}'), ('\u{2060}', '\u{2fff}'), ('\u{3001}', '\u{10ffff}')]))])])]),
        tree: 0x77fd157f7236e6b5,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x04curl\x04wget"), folded: false },
        },
    },
    Embedded {
        id: "credential_argument",
        source: 0xd1ea66a2e9920982,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"redis-cli"), Hir::look(Look::WordUnicode), rep(0, None, false, uni(&[('\u{0}', '\u{9}'), ('\u{b}', '\u{c}'), ('\u{e}', '\u{25}'), ('\u{27}', '\u{3a}'), ('\u{3c}', '\u{7b}'), ('\u{7d}', '\u{10ffff}')])), uni(&[('\u{9}', '\u{9}'), ('\u{20}', '\u{20}')]), lit(b"-a"), rep(1, None, true, uni(&[('\u{9}', '\u{9}'), ('\u{20}', '\u{20}')])), Hir::alternation(vec![Hir::concat(vec![lit(b"\""), rep(4, None, true, uni(&[('\u{0}', '\u{9}'), ('\u{b}', '\u{c}'), ('\u{e}', '\u{21}'), ('\u{23}', '\u{10ffff}')])), lit(b"\"")]), Hir::concat(vec![lit(b"'"), rep(4, None, true, uni(&[('\u{0}', '\u{9}'), ('\u{b}', '\u{c}'), ('\u{e}', '\u{26}'), ('\u{28}', '\u{10ffff}')])), lit(b"'")]), Hir::concat(vec![uni(&[('\u{0}', '\u{8}'), ('\u{e}', '\u{1f}'), ('\u{21}', '\u{21}'), ('\u{23}', '\u{25}'), ('\u{28}', '\u{2c}'), ('\u{2e}', '\u{3a}'), ('\u{3d}', '\u{3d}'), ('\u{3f}', '\u{7b}'), ('\u{7d}', '\u{84}'), ('\u{86}', '\u{9f}'), ('\u{a1}', '\u{167f}'), ('\u{1681}', '\u{1fff}'), ('\u{200b}', '\u{2027}'), ('\u{202a}', '\u{202e}'), ('\u{2030}', '\u{205e}'), ('\u{2060}', '\u{2fff}'), ('\u{3001}', '\u{10ffff}')]), rep(3, None, true, uni(&[('\u{0}', '\u{8}'), ('\u{e}', '\u{1f}'), ('\u{21}', '\u{21}'), ('\u{23}', '\u{25}'), ('\u{28}', '\u{3a}'), ('\u{3d}', '\u{3d}'), ('\u{3f}', '\u{7b}'), ('\u{7d}', '\u{84}'), ('\u{86}', '\u{9f}'), ('\u{a1}', '\u{167f}'), ('\u{1681}', '\u{1fff}'), ('\u{200b}', '\u{2027}'), ('\u{202a}', '\u{202e}'), ('\u{2030}', '\u{205e}'), ('\u{2060}', '\u{2fff}'), ('\u{3001}', '\u{10ffff}')]))])])]),
        tree: 0x109aaf02c462b95d,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x09redis-cli"), folded: false },
        },
    },
    Embedded {
        id: "credential_argument",
        source: 0xd1ea66a2e9920982,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"ldap"), Hir::alternation(vec![lit(b"search"), lit(b"add"), lit(b"modify"), lit(b"delete"), lit(b"passwd"), lit(b"whoami"), lit(b"compare"), lit(b"modrdn")]), Hir::look(Look::WordUnicode), rep(0, None, false, uni(&[('\u{0}', '\u{9}'), ('\u{b}', '\u{c}'), ('\u{e}', '\u{25}'), ('\u{27}', '\u{3a}'), ('\u{3c}', '\u{7b}'), ('\u{7d}', '\u{10ffff}')])), uni(&[('\u{9}', '\u{9}'), ('\u{20}', '\u{20}')]), lit(b"-w"), rep(1, None, true, uni(&[('\u{9}', '\u{9}'), ('\u{20}', '\u{20}')])), Hir::alternation(vec![Hir::concat(vec![lit(b"\""), rep(4, None, true, uni(&[('\u{0}', '\u{9}'), ('\u{b}', '\u{c}'), ('\u{e}', '\u{21}'), ('\u{23}', '\u{10ffff}')])), lit(b"\"")]), Hir::concat(vec![lit(b"'"), rep(4, None, true, uni(&[('\u{0}', '\u{9}'), ('\u{b}', '\u{c}'), ('\u{e}', '\u{26}'), ('\u{28}', '\u{10ffff}')])), lit(b"'")]), Hir::concat(vec![uni(&[('\u{0}', '\u{8}'), ('\u{e}', '\u{1f}'), ('\u{21}', '\u{21}'), ('\u{23}', '\u{25}'), ('\u{28}', '\u{2c}'), ('\u{2e}', '\u{3a}'), ('\u{3d}', '\u{3d}'), ('\u{3f}', '\u{7b}'), ('\u{7d}', '\u{84}'), ('\u{86}', '\u{9f}'), ('\u{a1}', '\u{167f}'), ('\u{1681}', '\u{1fff}'), ('\u{200b}', '\u{2027}'), ('\u{202a}', '\u{202e}'), ('\u{2030}', '\u{205e}'), ('\u{2060}', '\u{2fff}'), ('\u{3001}', '\u{10ffff}')]), rep(3, None, true, uni(&[('\u{0}', '\u{8}'), ('\u{e}', '\u{1f}'), ('\u{21}', '\u{21}'), ('\u{23}', '\u{25}'), ('\u{28}', '\u{3a}'), ('\u{3d}', '\u{3d}'), ('\u{3f}', '\u{7b}'), ('\u{7d}', '\u{84}'), ('\u{86}', '\u{9f}'), ('\u{a1}', '\u{167f}'), ('\u{1681}', '\u{1fff}'), ('\u{200b}', '\u{2027}'), ('\u{202a}', '\u{202e}'), ('\u{2030}', '\u{205e}'), ('\u{2060}', '\u{2fff}'), ('\u{3001}', '\u{10ffff}')]))])])]),
        tree: 0x5ad8ebea915ae006,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x07ldapadd\x0bldapcompare\x0aldapdelete\x0aldapmodify\x0aldapmodrdn\x0aldappasswd\x0aldapsearch\x0aldapwhoami"), folded: false },
        },
    },
    Embedded {
        id: "credential_argument",
        source: 0xd1ea66a2e9920982,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), Hir::alternation(vec![lit(b"sqlcmd"), lit(b"bcp"), lit(b"osql"), lit(b"isql")]), rep(0, Some(1), true, lit(b".exe")), rep(0, Some(1), true, Hir::concat(vec![uni(&[('\u{9}', '\u{9}'), ('\u{20}', '\u{20}')]), rep(0, None, false, uni(&[('\u{0}', '\u{9}'), ('\u{b}', '\u{c}'), ('\u{e}', '\u{25}'), ('\u{27}', '\u{3a}'), ('\u{3c}', '\u{7b}'), ('\u{7d}', '\u{10ffff}')]))])), uni(&[('\u{9}', '\u{9}'), ('\u{20}', '\u{20}')]), lit(b"-P"), rep(0, None, true, uni(&[('\u{9}', '\u{9}'), ('\u{20}', '\u{20}')])), Hir::alternation(vec![Hir::concat(vec![lit(b"\""), rep(4, None, true, uni(&[('\u{0}', '\u{9}'), ('\u{b}', '\u{c}'), ('\u{e}', '\u{21}'), ('\u{23}', '\u{10ffff}')])), lit(b"\"")]), Hir::concat(vec![lit(b"'"), rep(4, None, true, uni(&[('\u{0}', '\u{9}'), ('\u{b}', '\u{c}'), ('\u{e}', '\u{26}'), ('\u{28}', '\u{10ffff}')])), lit(b"'")]), Hir::concat(vec![uni(&[('\u{0}', '\u{8}'), ('\u{e}', '\u{1f}'), ('\u{21}', '\u{21}'), ('\u{23}', '\u{25}'), ('\u{28}', '\u{2c}'), ('\u{2e}', '\u{3a}'), ('\u{3d}', '\u{3d}'), ('\u{3f}', '\u{7b}'), ('\u{7d}', '\u{84}'), ('\u{86}', '\u{9f}'), ('\u{a1}', '\u{167f}'), ('\u{1681}', '\u{1fff}'), ('\u{200b}', '\u{2027}'), ('\u{202a}', '\u{202e}'), ('\u{2030}', '\u{205e}'), ('\u{2060}', '\u{2fff}'), ('\u{3001}', '\u{10ffff}')]), rep(3, None, true, uni(&[('\u{0}', '\u{8}'), ('\u{e}', '\u{1f}'), ('\u{21}', '\u{21}'), ('\u{23}', '\u{25}'), ('\u{28}', '\u{3a}'), ('\u{3d}', '\u{3d}'), ('\u{3f}', '\u{7b}'), ('\u{7d}', '\u{84}'), ('\u{86}', '\u{9f}'), ('\u{a1}', '\u{167f}'), ('\u{1681}', '\u{1fff}'), ('\u{200b}', '\u{2027}'), ('\u{202a}', '\u{202e}'), ('\u{2030}', '\u{205e}'), ('\u{2060}', '\u{2fff}'), ('\u{3001}', '\u{10ffff}')]))])])]),
        tree: 0x2cd76d1c00d8a7c0,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x04bcp\x09\x04bcp \x08bcp.exe\x09\x08bcp.exe \x05isql\x09\x05isql \x09isql.exe\x09\x09isql.exe \x05osql\x09\x05osql \x09osql.exe\x09\x09osql.exe \x07sqlcmd\x09\x07sqlcmd \x0bsqlcmd.exe\x09\x0bsqlcmd.exe "), folded: true },
        },
    },
    Embedded {
        id: "credential_argument",
        source: 0xd1ea66a2e9920982,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), Hir::alternation(vec![lit(b"zip"), lit(b"unzip")]), rep(0, Some(1), true, lit(b".exe")), rep(0, Some(1), true, Hir::concat(vec![uni(&[('\u{9}', '\u{9}'), ('\u{20}', '\u{20}')]), rep(0, None, false, uni(&[('\u{0}', '\u{9}'), ('\u{b}', '\u{c}'), ('\u{e}', '\u{25}'), ('\u{27}', '\u{3a}'), ('\u{3c}', '\u{7b}'), ('\u{7d}', '\u{10ffff}')]))])), uni(&[('\u{9}', '\u{9}'), ('\u{20}', '\u{20}')]), lit(b"-P"), rep(1, None, true, uni(&[('\u{9}', '\u{9}'), ('\u{20}', '\u{20}')])), Hir::alternation(vec![Hir::concat(vec![lit(b"\""), rep(4, None, true, uni(&[('\u{0}', '\u{9}'), ('\u{b}', '\u{c}'), ('\u{e}', '\u{21}'), ('\u{23}', '\u{10ffff}')])), lit(b"\"")]), Hir::concat(vec![lit(b"'"), rep(4, None, true, uni(&[('\u{0}', '\u{9}'), ('\u{b}', '\u{c}'), ('\u{e}', '\u{26}'), ('\u{28}', '\u{10ffff}')])), lit(b"'")]), Hir::concat(vec![uni(&[('\u{0}', '\u{8}'), ('\u{e}', '\u{1f}'), ('\u{21}', '\u{21}'), ('\u{23}', '\u{25}'), ('\u{28}', '\u{2c}'), ('\u{2e}', '\u{3a}'), ('\u{3d}', '\u{3d}'), ('\u{3f}', '\u{7b}'), ('\u{7d}', '\u{84}'), ('\u{86}', '\u{9f}'), ('\u{a1}', '\u{167f}'), ('\u{1681}', '\u{1fff}'), ('\u{200b}', '\u{2027}'), ('\u{202a}', '\u{202e}'), ('\u{2030}', '\u{205e}'), ('\u{2060}', '\u{2fff}'), ('\u{3001}', '\u{10ffff}')]), rep(3, None, true, uni(&[('\u{0}', '\u{8}'), ('\u{e}', '\u{1f}'), ('\u{21}', '\u{21}'), ('\u{23}', '\u{25}'), ('\u{28}', '\u{3a}'), ('\u{3d}', '\u{3d}'), ('\u{3f}', '\u{7b}'), ('\u{7d}', '\u{84}'), ('\u{86}', '\u{9f}'), ('\u{a1}', '\u{167f}'), ('\u{1681}', '\u{1fff}'), ('\u{200b}', '\u{2027}'), ('\u{202a}', '\u{202e}'), ('\u{2030}', '\u{205e}'), ('\u{2060}', '\u{2fff}'), ('\u{3001}', '\u{10ffff}')]))])])]),
        tree: 0x1de39530361a8bf2,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x06unzip\x09\x06unzip \x0aunzip.exe\x09\x0aunzip.exe \x04zip\x09\x04zip \x08zip.exe\x09\x08zip.exe "), folded: true },
        },
    },
    Embedded {
        id: "credential_argument",
        source: 0xd1ea66a2e9920982,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"mongo"), rep(0, Some(1), true, Hir::alternation(vec![lit(b"sh"), lit(b"dump"), lit(b"restore"), lit(b"import"), lit(b"export")])), Hir::look(Look::WordUnicode), rep(0, None, false, uni(&[('\u{0}', '\u{9}'), ('\u{b}', '\u{c}'), ('\u{e}', '\u{25}'), ('\u{27}', '\u{3a}'), ('\u{3c}', '\u{7b}'), ('\u{7d}', '\u{10ffff}')])), uni(&[('\u{9}', '\u{9}'), ('\u{20}', '\u{20}')]), lit(b"-p"), rep(1, None, true, uni(&[('\u{9}', '\u{9}'), ('\u{20}', '\u{20}')])), Hir::alternation(vec![Hir::concat(vec![lit(b"\""), rep(4, None, true, uni(&[('\u{0}', '\u{9}'), ('\u{b}', '\u{c}'), ('\u{e}', '\u{21}'), ('\u{23}', '\u{10ffff}')])), lit(b"\"")]), Hir::concat(vec![lit(b"'"), rep(4, None, true, uni(&[('\u{0}', '\u{9}'), ('\u{b}', '\u{c}'), ('\u{e}', '\u{26}'), ('\u{28}', '\u{10ffff}')])), lit(b"'")]), Hir::concat(vec![uni(&[('\u{0}', '\u{8}'), ('\u{e}', '\u{1f}'), ('\u{21}', '\u{21}'), ('\u{23}', '\u{25}'), ('\u{28}', '\u{2c}'), ('\u{2e}', '\u{3a}'), ('\u{3d}', '\u{3d}'), ('\u{3f}', '\u{7b}'), ('\u{7d}', '\u{84}'), ('\u{86}', '\u{9f}'), ('\u{a1}', '\u{167f}'), ('\u{1681}', '\u{1fff}'), ('\u{200b}', '\u{2027}'), ('\u{202a}', '\u{202e}'), ('\u{2030}', '\u{205e}'), ('\u{2060}', '\u{2fff}'), ('\u{3001}', '\u{10ffff}')]), rep(3, None, true, uni(&[('\u{0}', '\u{8}'), ('\u{e}', '\u{1f}'), ('\u{21}', '\u{21}'), ('\u{23}', '\u{25}'), ('\u{28}', '\u{3a}'), ('\u{3d}', '\u{3d}'), ('\u{3f}', '\u{7b}'), ('\u{7d}', '\u{84}'), ('\u{86}', '\u{9f}'), ('\u{a1}', '\u{167f}'), ('\u{1681}', '\u{1fff}'), ('\u{200b}', '\u{2027}'), ('\u{202a}', '\u{202e}'), ('\u{2030}', '\u{205e}'), ('\u{2060}', '\u{2fff}'), ('\u{3001}', '\u{10ffff}')]))])])]),
        tree: 0x9f92e967b472635d,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x05mongo"), folded: false },
        },
    },
    Embedded {
        id: "credential_argument",
        source: 0xd1ea66a2e9920982,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"smbclient"), Hir::look(Look::WordUnicode), rep(0, None, false, uni(&[('\u{0}', '\u{9}'), ('\u{b}', '\u{c}'), ('\u{e}', '\u{25}'), ('\u{27}', '\u{3a}'), ('\u{3c}', '\u{7b}'), ('\u{7d}', '\u{10ffff}')])), uni(&[('\u{9}', '\u{9}'), ('\u{20}', '\u{20}')]), lit(b"-U"), rep(0, None, true, uni(&[('\u{9}', '\u{9}'), ('\u{20}', '\u{20}')])), Hir::alternation(vec![Hir::concat(vec![lit(b"\""), rep(0, None, true, uni(&[('\u{0}', '\u{9}'), ('\u{b}', '\u{c}'), ('\u{e}', '\u{21}'), ('\u{23}', '\u{24}'), ('\u{26}', '\u{10ffff}')])), lit(b"%"), rep(4, None, true, uni(&[('\u{0}', '\u{9}'), ('\u{b}', '\u{c}'), ('\u{e}', '\u{21}'), ('\u{23}', '\u{10ffff}')])), lit(b"\"")]), Hir::concat(vec![lit(b"'"), rep(0, None, true, uni(&[('\u{0}', '\u{9}'), ('\u{b}', '\u{c}'), ('\u{e}', '\u{24}'), ('\u{26}', '\u{26}'), ('\u{28}', '\u{10ffff}')])), lit(b"%"), rep(4, None, true, uni(&[('\u{0}', '\u{9}'), ('\u{b}', '\u{c}'), ('\u{e}', '\u{26}'), ('\u{28}', '\u{10ffff}')])), lit(b"'")]), Hir::concat(vec![rep(0, None, true, uni(&[('\u{0}', '\u{8}'), ('\u{e}', '\u{1f}'), ('\u{21}', '\u{21}'), ('\u{23}', '\u{24}'), ('\u{28}', '\u{3a}'), ('\u{3d}', '\u{3d}'), ('\u{3f}', '\u{7b}'), ('\u{7d}', '\u{84}'), ('\u{86}', '\u{9f}'), ('\u{a1}', '\u{167f}'), ('\u{1681}', '\u{1fff}'), ('\u{200b}', '\u{2027}'), ('\u{202a}', '\u{202e}'), ('\u{2030}', '\u{205e}'), ('\u{2060}', '\u{2fff}'), ('\u{3001}', '\u{10ffff}')])), lit(b"%"), rep(4, None, true, uni(&[('\u{0}', '\u{8}'), ('\u{e}', '\u{1f}'), ('\u{21}', '\u{21}'), ('\u{23}', '\u{25}'), ('\u{28}', '\u{3a}'), ('\u{3d}', '\u{3d}'), ('\u{3f}', '\u{7b}'), ('\u{7d}', '\u{84}'), ('\u{86}', '\u{9f}'), ('\u{a1}', '\u{167f}'), ('\u{1681}', '\u{1fff}'), ('\u{200b}', '\u{2027}'), ('\u{202a}', '\u{202e}'), ('\u{2030}', '\u{205e}'), ('\u{2060}', '\u{2fff}'), ('\u{3001}', '\u{10ffff}')]))])])]),
        tree: 0x87bbac8f0600565f,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x09smbclient"), folded: false },
        },
    },
    Embedded {
        id: "credential_argument",
        source: 0xd1ea66a2e9920982,
        hir: || Hir::concat(vec![uni(&[('\u{9}', '\u{9}'), ('\u{20}', '\u{20}')]), lit(b"-pass"), rep(0, Some(1), true, Hir::alternation(vec![lit(b"in"), lit(b"out")])), rep(1, None, true, uni(&[('\u{9}', '\u{9}'), ('\u{20}', '\u{20}')])), Hir::alternation(vec![Hir::concat(vec![lit(b"\"pass:"), rep(4, None, true, uni(&[('\u{0}', '\u{9}'), ('\u{b}', '\u{c}'), ('\u{e}', '\u{21}'), ('\u{23}', '\u{10ffff}')])), lit(b"\"")]), Hir::concat(vec![lit(b"'pass:"), rep(4, None, true, uni(&[('\u{0}', '\u{9}'), ('\u{b}', '\u{c}'), ('\u{e}', '\u{26}'), ('\u{28}', '\u{10ffff}')])), lit(b"'")]), Hir::concat(vec![lit(b"pass:"), rep(4, None, true, uni(&[('\u{0}', '\u{8}'), ('\u{e}', '\u{1f}'), ('\u{21}', '\u{21}'), ('\u{23}', '\u{25}'), ('\u{28}', '\u{3a}'), ('\u{3d}', '\u{3d}'), ('\u{3f}', '\u{7b}'), ('\u{7d}', '\u{84}'), ('\u{86}', '\u{9f}'), ('\u{a1}', '\u{167f}'), ('\u{1681}', '\u{1fff}'), ('\u{200b}', '\u{2027}'), ('\u{202a}', '\u{202e}'), ('\u{2030}', '\u{205e}'), ('\u{2060}', '\u{2fff}'), ('\u{3001}', '\u{10ffff}')]))])])]),
        tree: 0x3edc017b66351a95,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x07\x09-pass\x09\x07\x09-pass \x09\x09-passin\x09\x09\x09-passin \x0a\x09-passout\x09\x0a\x09-passout \x07 -pass\x09\x07 -pass \x09 -passin\x09\x09 -passin \x0a -passout\x09\x0a -passout "), folded: false },
        },
    },
    Embedded {
        id: "credential_argument",
        source: 0xd1ea66a2e9920982,
        hir: || Hir::concat(vec![uni(&[('\u{9}', '\u{9}'), ('\u{20}', '\u{20}')]), lit(b"-"), rep(0, Some(1), true, Hir::alternation(vec![lit(b"src"), lit(b"dest")])), Hir::alternation(vec![lit(b"storepass"), lit(b"keypass")]), rep(1, None, true, uni(&[('\u{9}', '\u{9}'), ('\u{20}', '\u{20}')])), Hir::alternation(vec![Hir::concat(vec![lit(b"\""), rep(4, None, true, uni(&[('\u{0}', '\u{9}'), ('\u{b}', '\u{c}'), ('\u{e}', '\u{21}'), ('\u{23}', '\u{10ffff}')])), lit(b"\"")]), Hir::concat(vec![lit(b"'"), rep(4, None, true, uni(&[('\u{0}', '\u{9}'), ('\u{b}', '\u{c}'), ('\u{e}', '\u{26}'), ('\u{28}', '\u{10ffff}')])), lit(b"'")]), Hir::concat(vec![uni(&[('\u{0}', '\u{8}'), ('\u{e}', '\u{1f}'), ('\u{21}', '\u{21}'), ('\u{23}', '\u{25}'), ('\u{28}', '\u{2c}'), ('\u{2e}', '\u{3a}'), ('\u{3d}', '\u{3d}'), ('\u{3f}', '\u{7b}'), ('\u{7d}', '\u{84}'), ('\u{86}', '\u{9f}'), ('\u{a1}', '\u{167f}'), ('\u{1681}', '\u{1fff}'), ('\u{200b}', '\u{2027}'), ('\u{202a}', '\u{202e}'), ('\u{2030}', '\u{205e}'), ('\u{2060}', '\u{2fff}'), ('\u{3001}', '\u{10ffff}')]), rep(3, None, true, uni(&[('\u{0}', '\u{8}'), ('\u{e}', '\u{1f}'), ('\u{21}', '\u{21}'), ('\u{23}', '\u{25}'), ('\u{28}', '\u{3a}'), ('\u{3d}', '\u{3d}'), ('\u{3f}', '\u{7b}'), ('\u{7d}', '\u{84}'), ('\u{86}', '\u{9f}'), ('\u{a1}', '\u{167f}'), ('\u{1681}', '\u{1fff}'), ('\u{200b}', '\u{2027}'), ('\u{202a}', '\u{202e}'), ('\u{2030}', '\u{205e}'), ('\u{2060}', '\u{2fff}'), ('\u{3001}', '\u{10ffff}')]))])])]),
        tree: 0xd315b4c0e5ae5002,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x0e\x09-destkeypass\x09\x0e\x09-destkeypass \x10\x09-deststorepass\x09\x10\x09-deststorepass \x0a\x09-keypass\x09\x0a\x09-keypass \x0d\x09-srckeypass\x09\x0d\x09-srckeypass \x0f\x09-srcstorepass\x09\x0f\x09-srcstorepass \x0c\x09-storepass\x09\x0c\x09-storepass \x0e -destkeypass\x09\x0e -destkeypass \x10 -deststorepass\x09\x10 -deststorepass \x0a -keypass\x09\x0a -keypass \x0d -srckeypass\x09\x0d -srckeypass \x0f -srcstorepass\x09\x0f -srcstorepass \x0c -storepass\x09\x0c -storepass "), folded: false },
        },
    },
    Embedded {
        id: "email",
        source: 0xe805c751037d79ae,
        hir: || Hir::concat(vec![Hir::alternation(vec![Hir::concat(vec![lit(b"//"), rep(0, None, true, uni(&[('\u{0}', '\u{8}'), ('\u{e}', '\u{1f}'), ('\u{21}', '\u{2e}'), ('\u{30}', '\u{39}'), ('\u{3b}', '\u{3f}'), ('\u{41}', '\u{84}'), ('\u{86}', '\u{9f}'), ('\u{a1}', '\u{167f}'), ('\u{1681}', '\u{1fff}'), ('\u{200b}', '\u{2027}'), ('\u{202a}', '\u{202e}'), ('\u{2030}', '\u{205e}'), ('\u{2060}', '\u{2fff}'), ('\u{3001}', '\u{10ffff}')])), lit(b":"), rep(0, None, true, uni(&[('\u{0}', '\u{8}'), ('\u{e}', '\u{1f}'), ('\u{21}', '\u{2e}'), ('\u{30}', '\u{3f}'), ('\u{41}', '\u{84}'), ('\u{86}', '\u{9f}'), ('\u{a1}', '\u{167f}'), ('\u{1681}', '\u{1fff}'), ('\u{200b}', '\u{2027}'), ('\u{202a}', '\u{202e}'), ('\u{2030}', '\u{205e}'), ('\u{2060}', '\u{2fff}'), ('\u{3001}', '\u{10ffff}')]))]), Hir::concat(vec![Hir::look(Look::WordUnicode), uni(&[('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{61}', '\u{7a}')]), rep(0, Some(63), true, uni(&[('\u{25}', '\u{25}'), ('\u{2b}', '\u{2b}'), ('\u{2d}', '\u{2e}'), ('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{5f}', '\u{5f}'), ('\u{61}', '\u{7a}')]))])]), lit(b"@"), rep(1, None, true, Hir::concat(vec![uni(&[('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{61}', '\u{7a}')]), rep(0, Some(1), true, Hir::concat(vec![rep(0, Some(61), true, uni(&[('\u{2d}', '\u{2d}'), ('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{61}', '\u{7a}')])), uni(&[('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{61}', '\u{7a}')])])), lit(b".")])), rep(2, Some(24), true, uni(&[('\u{41}', '\u{5a}'), ('\u{61}', '\u{7a}')])), Hir::look(Look::WordUnicode)]),
        tree: 0xfd3b91bf572f5503,
        plan: Plan {
            single_line: true,
            find: Find::Gate { literals: Literals::embedded(b"\x01@") },
        },
    },
    Embedded {
        id: "phone",
        source: 0x404b7abe6655e9c4,
        hir: || Hir::alternation(vec![Hir::concat(vec![Hir::look(Look::WordUnicodeNegate), lit(b"+"), uni(&[('\u{31}', '\u{39}')]), rep(6, Some(16), true, Hir::concat(vec![rep(0, Some(1), true, uni(&[('\u{20}', '\u{20}'), ('\u{2d}', '\u{2e}')])), rep(0, Some(1), true, Hir::concat(vec![lit(b"("), rep(1, Some(4), true, uni(&[('\u{30}', '\u{39}')])), lit(b")"), rep(0, Some(1), true, uni(&[('\u{20}', '\u{20}'), ('\u{2d}', '\u{2e}')]))])), uni(&[('\u{30}', '\u{39}')])])), Hir::look(Look::WordUnicode)]), Hir::concat(vec![rep(0, Some(1), true, Hir::concat(vec![Hir::look(Look::WordUnicode), lit(b"1"), rep(0, Some(1), true, uni(&[('\u{20}', '\u{20}'), ('\u{2d}', '\u{2e}')]))])), Hir::alternation(vec![Hir::concat(vec![lit(b"("), uni(&[('\u{32}', '\u{39}')]), rep(2, Some(2), true, uni(&[('\u{30}', '\u{39}')])), lit(b")"), rep(0, Some(1), true, uni(&[('\u{20}', '\u{20}'), ('\u{2d}', '\u{2e}')]))]), Hir::concat(vec![Hir::look(Look::WordUnicode), uni(&[('\u{32}', '\u{39}')]), rep(2, Some(2), true, uni(&[('\u{30}', '\u{39}')])), uni(&[('\u{2d}', '\u{2e}')])])]), uni(&[('\u{32}', '\u{39}')]), rep(2, Some(2), true, uni(&[('\u{30}', '\u{39}')])), uni(&[('\u{20}', '\u{20}'), ('\u{2d}', '\u{2e}')]), rep(4, Some(4), true, uni(&[('\u{30}', '\u{39}')])), Hir::look(Look::WordUnicode)])]),
        tree: 0x887d32f85c32dd8f,
        plan: Plan {
            single_line: true,
            find: Find::Residual { relaxed: true },
        },
    },
    Embedded {
        id: "credit_card",
        source: 0x54044698ac664278,
        hir: || Hir::concat(vec![rep(0, Some(1), true, Hir::concat(vec![Hir::look(Look::WordUnicode), Hir::alternation(vec![Hir::concat(vec![rep(2, Some(2), true, uni(&[('\u{41}', '\u{5a}')])), rep(2, Some(2), true, uni(&[('\u{30}', '\u{39}')])), lit(b" ")]), Hir::concat(vec![rep(1, None, true, uni(&[('\u{30}', '\u{39}')])), lit(b".")])])])), Hir::look(Look::WordUnicode), uni(&[('\u{30}', '\u{39}')]), rep(12, None, true, Hir::concat(vec![rep(0, Some(1), true, uni(&[('\u{20}', '\u{20}'), ('\u{2d}', '\u{2d}')])), uni(&[('\u{30}', '\u{39}')])])), rep(0, Some(1), true, Hir::concat(vec![lit(b"."), rep(1, None, true, uni(&[('\u{30}', '\u{39}')]))])), Hir::look(Look::WordUnicode)]),
        tree: 0x4b8dd4c53d94da98,
        plan: Plan {
            single_line: true,
            find: Find::Residual { relaxed: true },
        },
    },
    Embedded {
        id: "us_ssn",
        source: 0x16e416fbf885a58b,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), rep(0, None, true, Hir::concat(vec![rep(1, None, true, uni(&[('\u{30}', '\u{39}')])), lit(b"-")])), rep(3, Some(3), true, uni(&[('\u{30}', '\u{39}')])), lit(b"-"), rep(2, Some(2), true, uni(&[('\u{30}', '\u{39}')])), lit(b"-"), rep(4, Some(4), true, uni(&[('\u{30}', '\u{39}')])), rep(0, None, true, Hir::concat(vec![lit(b"-"), rep(1, None, true, uni(&[('\u{30}', '\u{39}')]))])), Hir::look(Look::WordUnicode)]),
        tree: 0xa42b4816242bd933,
        plan: Plan {
            single_line: true,
            find: Find::Residual { relaxed: true },
        },
    },
    Embedded {
        id: "us_ssn",
        source: 0x16e416fbf885a58b,
        hir: || Hir::concat(vec![Hir::alternation(vec![Hir::concat(vec![Hir::alternation(vec![Hir::look(Look::WordUnicode), lit(b"_")]), uni(&[('\u{53}', '\u{53}'), ('\u{73}', '\u{73}'), ('\u{17f}', '\u{17f}')]), uni(&[('\u{53}', '\u{53}'), ('\u{73}', '\u{73}'), ('\u{17f}', '\u{17f}')]), uni(&[('\u{4e}', '\u{4e}'), ('\u{6e}', '\u{6e}')])]), Hir::concat(vec![Hir::look(Look::WordUnicode), uni(&[('\u{53}', '\u{53}'), ('\u{73}', '\u{73}'), ('\u{17f}', '\u{17f}')]), uni(&[('\u{4f}', '\u{4f}'), ('\u{6f}', '\u{6f}')]), uni(&[('\u{43}', '\u{43}'), ('\u{63}', '\u{63}')]), uni(&[('\u{49}', '\u{49}'), ('\u{69}', '\u{69}')]), uni(&[('\u{41}', '\u{41}'), ('\u{61}', '\u{61}')]), uni(&[('\u{4c}', '\u{4c}'), ('\u{6c}', '\u{6c}')]), rep(0, Some(1), true, uni(&[('\u{20}', '\u{20}'), ('\u{2d}', '\u{2d}'), ('\u{5f}', '\u{5f}')])), uni(&[('\u{53}', '\u{53}'), ('\u{73}', '\u{73}'), ('\u{17f}', '\u{17f}')]), uni(&[('\u{45}', '\u{45}'), ('\u{65}', '\u{65}')]), uni(&[('\u{43}', '\u{43}'), ('\u{63}', '\u{63}')]), uni(&[('\u{55}', '\u{55}'), ('\u{75}', '\u{75}')]), uni(&[('\u{52}', '\u{52}'), ('\u{72}', '\u{72}')]), uni(&[('\u{49}', '\u{49}'), ('\u{69}', '\u{69}')]), uni(&[('\u{54}', '\u{54}'), ('\u{74}', '\u{74}')]), uni(&[('\u{59}', '\u{59}'), ('\u{79}', '\u{79}')]), rep(0, Some(1), true, Hir::concat(vec![rep(0, Some(1), true, uni(&[('\u{20}', '\u{20}'), ('\u{2d}', '\u{2d}'), ('\u{5f}', '\u{5f}')])), uni(&[('\u{4e}', '\u{4e}'), ('\u{6e}', '\u{6e}')]), Hir::alternation(vec![Hir::concat(vec![uni(&[('\u{55}', '\u{55}'), ('\u{75}', '\u{75}')]), uni(&[('\u{4d}', '\u{4d}'), ('\u{6d}', '\u{6d}')]), uni(&[('\u{42}', '\u{42}'), ('\u{62}', '\u{62}')]), uni(&[('\u{45}', '\u{45}'), ('\u{65}', '\u{65}')]), uni(&[('\u{52}', '\u{52}'), ('\u{72}', '\u{72}')])]), Hir::concat(vec![uni(&[('\u{55}', '\u{55}'), ('\u{75}', '\u{75}')]), uni(&[('\u{4d}', '\u{4d}'), ('\u{6d}', '\u{6d}')])]), Hir::concat(vec![uni(&[('\u{4f}', '\u{4f}'), ('\u{6f}', '\u{6f}')]), rep(0, Some(1), true, lit(b"."))])])]))])]), Hir::look(Look::WordUnicode), rep(0, Some(1), true, uni(&[('\u{22}', '\u{22}'), ('\u{27}', '\u{27}')])), rep(0, None, true, uni(&[('\u{9}', '\u{9}'), ('\u{20}', '\u{20}')])), rep(0, Some(1), true, Hir::concat(vec![uni(&[('\u{23}', '\u{23}'), ('\u{3a}', '\u{3a}'), ('\u{3d}', '\u{3d}')]), rep(0, None, true, uni(&[('\u{9}', '\u{9}'), ('\u{20}', '\u{20}')]))])), rep(0, Some(1), true, Hir::concat(vec![Hir::alternation(vec![Hir::concat(vec![uni(&[('\u{49}', '\u{49}'), ('\u{69}', '\u{69}')]), uni(&[('\u{53}', '\u{53}'), ('\u{73}', '\u{73}'), ('\u{17f}', '\u{17f}')])]), Hir::concat(vec![uni(&[('\u{4e}', '\u{4e}'), ('\u{6e}', '\u{6e}')]), uni(&[('\u{4f}', '\u{4f}'), ('\u{6f}', '\u{6f}')]), rep(0, Some(1), true, lit(b"."))]), Hir::concat(vec![uni(&[('\u{4e}', '\u{4e}'), ('\u{6e}', '\u{6e}')]), uni(&[('\u{55}', '\u{55}'), ('\u{75}', '\u{75}')]), uni(&[('\u{4d}', '\u{4d}'), ('\u{6d}', '\u{6d}')]), uni(&[('\u{42}', '\u{42}'), ('\u{62}', '\u{62}')]), uni(&[('\u{45}', '\u{45}'), ('\u{65}', '\u{65}')]), uni(&[('\u{52}', '\u{52}'), ('\u{72}', '\u{72}')])]), Hir::concat(vec![uni(&[('\u{4e}', '\u{4e}'), ('\u{6e}', '\u{6e}')]), uni(&[('\u{55}', '\u{55}'), ('\u{75}', '\u{75}')]), uni(&[('\u{4d}', '\u{4d}'), ('\u{6d}', '\u{6d}')])])]), rep(0, None, true, uni(&[('\u{9}', '\u{9}'), ('\u{20}', '\u{20}'), ('\u{23}', '\u{23}'), ('\u{3a}', '\u{3a}'), ('\u{3d}', '\u{3d}')]))])), rep(0, Some(1), true, uni(&[('\u{22}', '\u{22}'), ('\u{27}', '\u{27}')])), Hir::alternation(vec![rep(9, Some(9), true, uni(&[('\u{30}', '\u{39}')])), Hir::concat(vec![rep(3, Some(3), true, uni(&[('\u{30}', '\u{39}')])), lit(b" "), rep(2, Some(2), true, uni(&[('\u{30}', '\u{39}')])), lit(b" "), rep(4, Some(4), true, uni(&[('\u{30}', '\u{39}')]))])]), Hir::look(Look::WordUnicode)]),
        tree: 0xf74c45682996aecd,
        plan: Plan {
            single_line: true,
            find: Find::Prefix { literals: Literals::embedded(b"\x04_ssn\x05_s\xc5\xbfn\x05_\xc5\xbfsn\x06_\xc5\xbf\xc5\xbfn\x0fsocial security\x10social \xc5\xbfecurity\x0fsocial-security\x10social-\xc5\xbfecurity\x0fsocial_security\x10social_\xc5\xbfecurity\x0esocialsecurity\x0fsocial\xc5\xbfecurity\x03ssn\x04s\xc5\xbfn\x10\xc5\xbfocial security\x11\xc5\xbfocial \xc5\xbfecurity\x10\xc5\xbfocial-security\x11\xc5\xbfocial-\xc5\xbfecurity\x10\xc5\xbfocial_security\x11\xc5\xbfocial_\xc5\xbfecurity\x0f\xc5\xbfocialsecurity\x10\xc5\xbfocial\xc5\xbfecurity\x04\xc5\xbfsn\x05\xc5\xbf\xc5\xbfn"), folded: true },
        },
    },
    Embedded {
        id: "us_ssn",
        source: 0x16e416fbf885a58b,
        hir: || Hir::concat(vec![rep(0, None, true, uni(&[('\u{0}', '\u{9}'), ('\u{b}', '\u{c}'), ('\u{e}', '\u{10ffff}')])), Hir::alternation(vec![Hir::look(Look::WordUnicode), lit(b"_")]), uni(&[('\u{53}', '\u{53}'), ('\u{73}', '\u{73}'), ('\u{17f}', '\u{17f}')]), uni(&[('\u{53}', '\u{53}'), ('\u{73}', '\u{73}'), ('\u{17f}', '\u{17f}')]), uni(&[('\u{4e}', '\u{4e}'), ('\u{6e}', '\u{6e}')]), Hir::look(Look::WordUnicode), rep(0, None, true, uni(&[('\u{0}', '\u{9}'), ('\u{b}', '\u{c}'), ('\u{e}', '\u{10ffff}')])), rep(0, Some(1), true, Hir::concat(vec![rep(0, Some(1), true, lit(b"\x0d")), lit(b"\x0a"), rep(0, None, true, uni(&[('\u{9}', '\u{9}'), ('\u{20}', '\u{20}'), ('\u{2d}', '\u{2d}'), ('\u{3a}', '\u{3a}'), ('\u{7c}', '\u{7c}')]))])), rep(1, None, true, Hir::concat(vec![rep(0, Some(1), true, lit(b"\x0d")), lit(b"\x0a"), rep(0, None, true, uni(&[('\u{0}', '\u{9}'), ('\u{b}', '\u{c}'), ('\u{e}', '\u{10ffff}')])), rep(3, Some(3), true, uni(&[('\u{30}', '\u{39}')])), rep(0, Some(1), true, uni(&[('\u{20}', '\u{20}'), ('\u{2d}', '\u{2d}')])), rep(2, Some(2), true, uni(&[('\u{30}', '\u{39}')])), rep(0, Some(1), true, uni(&[('\u{20}', '\u{20}'), ('\u{2d}', '\u{2d}')])), rep(4, Some(4), true, uni(&[('\u{30}', '\u{39}')])), rep(0, None, true, uni(&[('\u{0}', '\u{9}'), ('\u{b}', '\u{c}'), ('\u{e}', '\u{10ffff}')]))]))]),
        tree: 0x94b417afac009fcf,
        plan: Plan {
            single_line: false,
            find: Find::Guard { literals: Literals::embedded(b"\x04_ssn\x05_s\xc5\xbfn\x05_\xc5\xbfsn\x06_\xc5\xbf\xc5\xbfn\x03ssn\x04s\xc5\xbfn\x04\xc5\xbfsn\x05\xc5\xbf\xc5\xbfn"), split: 1, lead: false, head: Some(Cow::Borrowed(&[('\u{0}', '\u{9}'), ('\u{b}', '\u{c}'), ('\u{e}', '\u{10ffff}')])), single_head: false },
        },
    },
    Embedded {
        id: "iban",
        source: 0xa5bfbd848dd6c723,
        hir: || Hir::concat(vec![Hir::look(Look::WordUnicode), rep(2, Some(2), true, uni(&[('\u{41}', '\u{5a}')])), rep(2, Some(2), true, uni(&[('\u{30}', '\u{39}')])), Hir::alternation(vec![rep(11, Some(30), true, uni(&[('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}')])), Hir::concat(vec![rep(2, Some(7), true, Hir::concat(vec![lit(b" "), rep(4, Some(4), true, uni(&[('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}')]))])), rep(0, Some(1), true, Hir::concat(vec![lit(b" "), rep(1, Some(4), true, uni(&[('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}')]))]))])]), Hir::look(Look::WordUnicode)]),
        tree: 0xccf155dd971ea71a,
        plan: Plan {
            single_line: true,
            find: Find::Residual { relaxed: true },
        },
    },
    Embedded {
        id: "ip_address",
        source: 0x65f4010bfeaffb66,
        hir: || Hir::alternation(vec![Hir::concat(vec![Hir::alternation(vec![Hir::concat(vec![Hir::look(Look::WordUnicode), uni(&[('\u{41}', '\u{5a}'), ('\u{61}', '\u{7a}')]), rep(0, None, true, uni(&[('\u{2d}', '\u{2d}'), ('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{5f}', '\u{5f}'), ('\u{61}', '\u{7a}')])), lit(b"/")]), Hir::concat(vec![Hir::look(Look::WordUnicode), Hir::alternation(vec![Hir::concat(vec![uni(&[('\u{56}', '\u{56}'), ('\u{76}', '\u{76}')]), uni(&[('\u{45}', '\u{45}'), ('\u{65}', '\u{65}')]), uni(&[('\u{52}', '\u{52}'), ('\u{72}', '\u{72}')]), uni(&[('\u{53}', '\u{53}'), ('\u{73}', '\u{73}'), ('\u{17f}', '\u{17f}')]), uni(&[('\u{49}', '\u{49}'), ('\u{69}', '\u{69}')]), uni(&[('\u{4f}', '\u{4f}'), ('\u{6f}', '\u{6f}')]), uni(&[('\u{4e}', '\u{4e}'), ('\u{6e}', '\u{6e}')])]), Hir::concat(vec![uni(&[('\u{56}', '\u{56}'), ('\u{76}', '\u{76}')]), uni(&[('\u{45}', '\u{45}'), ('\u{65}', '\u{65}')]), uni(&[('\u{52}', '\u{52}'), ('\u{72}', '\u{72}')])]), uni(&[('\u{56}', '\u{56}'), ('\u{76}', '\u{76}')]), Hir::concat(vec![uni(&[('\u{52}', '\u{52}'), ('\u{72}', '\u{72}')]), uni(&[('\u{45}', '\u{45}'), ('\u{65}', '\u{65}')]), uni(&[('\u{4c}', '\u{4c}'), ('\u{6c}', '\u{6c}')]), uni(&[('\u{45}', '\u{45}'), ('\u{65}', '\u{65}')]), uni(&[('\u{41}', '\u{41}'), ('\u{61}', '\u{61}')]), uni(&[('\u{53}', '\u{53}'), ('\u{73}', '\u{73}'), ('\u{17f}', '\u{17f}')]), uni(&[('\u{45}', '\u{45}'), ('\u{65}', '\u{65}')])]), Hir::concat(vec![uni(&[('\u{42}', '\u{42}'), ('\u{62}', '\u{62}')]), uni(&[('\u{55}', '\u{55}'), ('\u{75}', '\u{75}')]), uni(&[('\u{49}', '\u{49}'), ('\u{69}', '\u{69}')]), uni(&[('\u{4c}', '\u{4c}'), ('\u{6c}', '\u{6c}')]), uni(&[('\u{44}', '\u{44}'), ('\u{64}', '\u{64}')])]), Hir::concat(vec![uni(&[('\u{46}', '\u{46}'), ('\u{66}', '\u{66}')]), uni(&[('\u{49}', '\u{49}'), ('\u{69}', '\u{69}')]), uni(&[('\u{52}', '\u{52}'), ('\u{72}', '\u{72}')]), uni(&[('\u{4d}', '\u{4d}'), ('\u{6d}', '\u{6d}')]), uni(&[('\u{57}', '\u{57}'), ('\u{77}', '\u{77}')]), uni(&[('\u{41}', '\u{41}'), ('\u{61}', '\u{61}')]), uni(&[('\u{52}', '\u{52}'), ('\u{72}', '\u{72}')]), uni(&[('\u{45}', '\u{45}'), ('\u{65}', '\u{65}')])]), Hir::concat(vec![uni(&[('\u{46}', '\u{46}'), ('\u{66}', '\u{66}')]), uni(&[('\u{57}', '\u{57}'), ('\u{77}', '\u{77}')])])]), rep(0, Some(1), true, uni(&[('\u{2e}', '\u{2e}'), ('\u{3a}', '\u{3a}')])), rep(0, Some(1), true, lit(b" "))]), Hir::look(Look::WordUnicode)]), Hir::alternation(vec![Hir::concat(vec![lit(b"25"), uni(&[('\u{30}', '\u{35}')])]), Hir::concat(vec![lit(b"2"), uni(&[('\u{30}', '\u{34}')]), uni(&[('\u{30}', '\u{39}')])]), Hir::concat(vec![lit(b"1"), rep(2, Some(2), true, uni(&[('\u{30}', '\u{39}')]))]), Hir::concat(vec![rep(0, Some(1), true, uni(&[('\u{31}', '\u{39}')])), uni(&[('\u{30}', '\u{39}')])])]), rep(3, Some(3), true, Hir::concat(vec![lit(b"."), Hir::alternation(vec![Hir::concat(vec![lit(b"25"), uni(&[('\u{30}', '\u{35}')])]), Hir::concat(vec![lit(b"2"), uni(&[('\u{30}', '\u{34}')]), uni(&[('\u{30}', '\u{39}')])]), Hir::concat(vec![lit(b"1"), rep(2, Some(2), true, uni(&[('\u{30}', '\u{39}')]))]), Hir::concat(vec![rep(0, Some(1), true, uni(&[('\u{31}', '\u{39}')])), uni(&[('\u{30}', '\u{39}')])])])])), rep(0, None, true, Hir::concat(vec![lit(b"."), rep(1, None, true, uni(&[('\u{30}', '\u{39}')]))])), Hir::look(Look::WordUnicode)]), Hir::concat(vec![Hir::alternation(vec![Hir::concat(vec![Hir::look(Look::WordUnicode), rep(1, Some(4), true, uni(&[('\u{30}', '\u{39}'), ('\u{41}', '\u{46}'), ('\u{61}', '\u{66}')])), lit(b":")]), Hir::concat(vec![Hir::look(Look::WordUnicodeNegate), lit(b":")])]), rep(0, None, true, uni(&[('\u{25}', '\u{25}'), ('\u{2e}', '\u{2e}'), ('\u{30}', '\u{39}'), ('\u{41}', '\u{5a}'), ('\u{61}', '\u{7a}')])), lit(b":"), rep(0, None, true, uni(&[('\u{25}', '\u{25}'), ('\u{2e}', '\u{2e}'), ('\u{30}', '\u{3a}'), ('\u{41}', '\u{5a}'), ('\u{61}', '\u{7a}')]))])]),
        tree: 0xe725440ee1d24a6d,
        plan: Plan {
            single_line: true,
            find: Find::Residual { relaxed: true },
        },
    },
];
