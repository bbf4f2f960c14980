//! Policy composition (SPEC §16): `extends: default` (the embedded default
//! policy) or `extends: PATH` (a policy file, relative to the extending
//! one), `checks` replacing the extended checks of the same `id` and adding
//! the rest, `disable: [ID, …]` dropping extended checks. What comes out is
//! one plain policy document, read like any other: the effective policy
//! that `palisade policy show` prints.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use crate::error::{PolicyError, PolicyErrors};

/// How deep `extends` may chain.
const MAX_DEPTH: usize = 16;

/// Where a check of the composed document came from.
#[derive(Clone, Debug)]
pub(super) enum Origin {
    /// The policy's own `checks`, at this index.
    Own(usize),
    /// The extended policy (named as `extends` says), at this index of its
    /// composed checks.
    Extended(String, usize),
}

/// A policy document with its `extends` resolved, and the origin of each
/// of its checks (empty when it extends nothing).
#[derive(Debug)]
pub(super) struct Composed {
    pub(super) document: Value,
    pub(super) origins: Vec<Origin>,
}

/// Resolves `value`'s `extends` and `disable`. `file`: the file `value`
/// was read from (a relative `extends` is resolved against its folder).
pub(super) fn resolve(value: Value, file: Option<&Path>) -> Result<Composed, PolicyErrors> {
    let mut chain = Vec::new();
    if let Some(f) = file {
        chain.push(std::fs::canonicalize(f).unwrap_or_else(|_| f.to_path_buf()));
    }
    resolve_in(value, file, &mut chain)
}

fn one(pointer: &str, message: String) -> PolicyErrors {
    PolicyErrors::one(pointer, message)
}

fn resolve_in(
    value: Value,
    file: Option<&Path>,
    chain: &mut Vec<PathBuf>,
) -> Result<Composed, PolicyErrors> {
    let Value::Object(mut own) = value else {
        return Ok(Composed {
            document: value,
            origins: Vec::new(),
        });
    };
    let Some(extends) = own.remove("extends") else {
        if own.contains_key("disable") {
            return Err(one(
                "/disable",
                "`disable` drops checks of the extended policy, and this policy has no `extends` (`extends: default`, or a policy file)".to_owned(),
            ));
        }
        return Ok(Composed {
            document: Value::Object(own),
            origins: Vec::new(),
        });
    };
    let Some(name) = extends.as_str().map(str::to_owned) else {
        return Err(one(
            "/extends",
            format!(
                "`extends` must be `default` or the path of a policy file, not {}",
                crate::policy::read::json_type(&extends)
            ),
        ));
    };
    let base = if name == "default" {
        let value: Value = serde_json::from_str(crate::DEFAULT_POLICY_JSON)
            .map_err(|e| one("/extends", format!("the default policy: {e}")))?;
        value
    } else {
        extended_file(&name, file, chain)?
    };
    let base_checks = match base.get("checks") {
        None => Vec::new(),
        Some(Value::Array(items)) => items.clone(),
        // The extended file was read and found valid: this cannot be.
        Some(_) => Vec::new(),
    };
    let base_ids: Vec<String> = base_checks
        .iter()
        .enumerate()
        .map(|(i, c)| super::locate::id_of(c, i))
        .collect();
    let mut checks: Vec<Option<Value>> = base_checks.into_iter().map(Some).collect();
    let mut origins: Vec<Origin> = (0..checks.len())
        .map(|i| Origin::Extended(name.clone(), i))
        .collect();

    // `disable`: ids of the extended checks.
    let mut disabled = Vec::new();
    let mut errors = Vec::new();
    match own.remove("disable") {
        None => {}
        Some(Value::Array(items)) => {
            for (j, item) in items.iter().enumerate() {
                let at = format!("/disable/{j}");
                let Some(id) = item.as_str() else {
                    errors.push(PolicyError::new(
                        at,
                        format!(
                            "an entry of `disable` is the id of a check, not {}",
                            crate::policy::read::json_type(item)
                        ),
                    ));
                    continue;
                };
                match base_ids.iter().position(|b| b == id) {
                    Some(k) => disabled.push((k, at, id.to_owned())),
                    None => errors.push(PolicyError::new(at, unknown_id(id, &name, &base_ids))),
                }
            }
        }
        Some(other) => errors.push(PolicyError::new(
            "/disable",
            format!(
                "`disable` must be a list of check ids, not {}",
                crate::policy::read::json_type(&other)
            ),
        )),
    }

    // `checks`: the same id replaces, another id adds.
    let own_checks = match own.remove("checks") {
        None => Vec::new(),
        Some(Value::Array(items)) => items,
        Some(other) => {
            // Not a list: the reader says so.
            if !errors.is_empty() {
                return Err(PolicyErrors::new(errors));
            }
            own.insert("checks".into(), other);
            return Ok(Composed {
                document: Value::Object(own),
                origins: Vec::new(),
            });
        }
    };
    for (i, check) in own_checks.into_iter().enumerate() {
        let explicit = check.get("id").and_then(Value::as_str).map(str::to_owned);
        match explicit.and_then(|id| base_ids.iter().position(|b| *b == id)) {
            Some(k) => {
                if let Some((_, at, id)) = disabled.iter().find(|(d, _, _)| *d == k) {
                    errors.push(PolicyError::new(
                        at.clone(),
                        format!(
                            "`{id}` is disabled here and replaced in `checks` (/checks/{i}); do one or the other"
                        ),
                    ));
                }
                if let Some(slot) = checks.get_mut(k) {
                    *slot = Some(check);
                }
                if let Some(o) = origins.get_mut(k) {
                    *o = Origin::Own(i);
                }
            }
            None => {
                checks.push(Some(check));
                origins.push(Origin::Own(i));
            }
        }
    }
    if !errors.is_empty() {
        return Err(PolicyErrors::new(errors));
    }
    for (k, _, _) in &disabled {
        if let Some(slot) = checks.get_mut(*k) {
            *slot = None;
        }
    }
    let (checks, origins): (Vec<Value>, Vec<Origin>) = checks
        .into_iter()
        .zip(origins)
        .filter_map(|(c, o)| Some((c?, o)))
        .unzip();

    let mut document = Map::new();
    if let Some(mode) = own.remove("mode").or_else(|| base.get("mode").cloned()) {
        document.insert("mode".into(), mode);
    }
    // Anything else the policy has is the reader's to judge.
    for (k, v) in own {
        if k != "$schema" {
            document.insert(k, v);
        }
    }
    document.insert("checks".into(), Value::Array(checks));
    Ok(Composed {
        document: Value::Object(document),
        origins,
    })
}

fn unknown_id(id: &str, extended: &str, known: &[String]) -> String {
    let near = palisade_protocol::suggest::closest(id, known.iter().map(String::as_str))
        .map(|n| format!("did you mean `{n}`? "))
        .unwrap_or_default();
    let what = if extended == "default" {
        "the default policy".to_owned()
    } else {
        format!("`{extended}`")
    };
    format!(
        "no check of {what} has the id `{id}`; {near}its checks are {}",
        known
            .iter()
            .map(|k| format!("`{k}`"))
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// The policy file `name` extends, read, checked on its own, and composed.
fn extended_file(
    name: &str,
    file: Option<&Path>,
    chain: &mut Vec<PathBuf>,
) -> Result<Value, PolicyErrors> {
    let Some(file) = file else {
        return Err(one(
            "/extends",
            format!(
                "`extends: {name}` names a file relative to the policy's own file, and this policy was not read from a file; extend `default`, or read the policy from its file"
            ),
        ));
    };
    let dir = file.parent().unwrap_or(Path::new(""));
    let path = dir.join(name);
    let canonical = std::fs::canonicalize(&path).map_err(|e| {
        one(
            "/extends",
            format!(
                "cannot read `{}`, which `{}` extends: {e}",
                path.display(),
                file.display()
            ),
        )
    })?;
    if let Some(start) = chain.iter().position(|p| *p == canonical) {
        let cycle: Vec<String> = chain
            .get(start..)
            .unwrap_or_default()
            .iter()
            .chain(std::iter::once(&canonical))
            .map(|p| format!("`{}`", p.display()))
            .collect();
        return Err(one(
            "/extends",
            format!("`extends` makes a cycle: {}", cycle.join(" extends ")),
        ));
    }
    if chain.len() >= MAX_DEPTH {
        return Err(one(
            "/extends",
            format!("`extends` chains more than {MAX_DEPTH} policies deep"),
        ));
    }
    let text = std::fs::read_to_string(&path).map_err(|e| {
        one(
            "/extends",
            format!(
                "cannot read `{}`, which `{}` extends: {e}",
                path.display(),
                file.display()
            ),
        )
    })?;
    // A problem of the extended file is told at the own file's `extends`,
    // with where it is in the extended file.
    let found = super::locate::positions(&text);
    let in_file = |errors: PolicyErrors, document: Option<&Value>| {
        PolicyErrors::new(
            errors
                .errors
                .into_iter()
                .map(|e| {
                    let place = super::locate::place(
                        &path.display().to_string(),
                        &found,
                        document,
                        &e.pointer,
                    );
                    let at = match place.position {
                        Some((l, c)) => format!(", line {l} column {c}"),
                        None => String::new(),
                    };
                    let pointer = if e.pointer.is_empty() {
                        "/"
                    } else {
                        &e.pointer
                    };
                    let check = place
                        .check
                        .map(|id| format!(" (check `{id}`)"))
                        .unwrap_or_default();
                    PolicyError::new(
                        "/extends",
                        format!(
                            "in `{}` (extended){at}: {pointer}{check}: {}",
                            path.display(),
                            e.message
                        ),
                    )
                })
                .collect(),
        )
    };
    let value = super::parse(&path, &text).map_err(|e| in_file(e, None))?;
    let document = Some(value.clone());
    chain.push(canonical);
    let composed = resolve_in(value, Some(&path), chain);
    chain.pop();
    let composed = composed.map_err(|e| in_file(e, document.as_ref()))?;
    // The extended policy must hold on its own.
    super::from_composed(&composed).map_err(|e| in_file(e, document.as_ref()))?;
    Ok(composed.document)
}

/// A problem found in the composed document, told where the user wrote it:
/// a check of the policy's own `checks` at its own index; one of the
/// extended policy (a reference that a `disable` broke) as the extended
/// policy's.
pub(super) fn relocate(error: PolicyError, origins: &[Origin]) -> PolicyError {
    let Some(rest) = error.pointer.strip_prefix("/checks/") else {
        return error;
    };
    let (index, tail) = rest.split_once('/').unwrap_or((rest, ""));
    let Some(origin) = index.parse::<usize>().ok().and_then(|i| origins.get(i)) else {
        return error;
    };
    let tail = if tail.is_empty() {
        String::new()
    } else {
        format!("/{tail}")
    };
    match origin {
        Origin::Own(i) => PolicyError::new(format!("/checks/{i}{tail}"), error.message),
        Origin::Extended(name, i) => PolicyError::new(
            "/extends",
            format!(
                "in `{name}` (extended): /checks/{i}{tail}: {}",
                error.message
            ),
        ),
    }
}
