//! What the user asked for: the effects ([`Effect`]) a request of the user
//! names by its verbs and objects, in English, German, French and Spanish
//! (`delete the old drafts`, `lösche die Datei`, `réserve une table`,
//! `envía el informe`).
//!
//! A word counts when it is one of a category's words or starts with one
//! of its stems (`delet` covers `delete`, `deleted`, `deleting`); stems are
//! at least four letters, shorter words count only whole (`add`, `pay`,
//! `run`), so that `address` does not ask to add. Being generous here
//! costs little: a category the user named lets its calls through this
//! rule, and the provenance rule still judges the values they carry.

use super::effects::{Effect, Effects};

/// Whole words and stems of each category.
struct Words {
    effects: &'static [Effect],
    whole: &'static [&'static str],
    stems: &'static [&'static str],
}

const SEND_PAY: &[Effect] = &[Effect::Send, Effect::Pay];
const SEND: &[Effect] = &[Effect::Send];
const PAY: &[Effect] = &[Effect::Pay];
const INVITE: &[Effect] = &[Effect::Invite];
const CREATE: &[Effect] = &[Effect::Create];
const CREATE_INVITE_MODIFY: &[Effect] = &[Effect::Create, Effect::Invite, Effect::Modify];
const ARRANGE: &[Effect] = &[Effect::Create, Effect::Invite, Effect::Book];
const MODIFY: &[Effect] = &[Effect::Modify];
const DELETE: &[Effect] = &[Effect::Delete];
const DELETE_MODIFY: &[Effect] = &[Effect::Delete, Effect::Modify];
const BOOK: &[Effect] = &[Effect::Book, Effect::Create, Effect::Invite];
const SHARE: &[Effect] = &[Effect::Send, Effect::Invite];
const EXECUTE: &[Effect] = &[Effect::Execute];
const CODE: &[Effect] = &[Effect::Execute, Effect::Modify, Effect::Create];
const FETCH: &[Effect] = &[Effect::Fetch];

const TABLE: &[Words] = &[
    // "send Dmitri the same as last time": sending money or a message.
    Words {
        effects: SEND_PAY,
        whole: &[
            "send",
            "sent",
            "sends",
            "transfer",
            "transfers",
            "senden",
            "schick",
            "schicke",
            "envoie",
            "envoyer",
            "envía",
            "envia",
            "enviar",
            "manda",
            "mandar",
        ],
        stems: &[
            "transf",
            "überweis",
            "ueberweis",
            "übermittel",
            "transmet",
            "schick",
        ],
    },
    Words {
        effects: SEND,
        whole: &[
            "email",
            "emails",
            "mail",
            "mails",
            "tell",
            "dm",
            "ping",
            "cc",
            "post",
            "text",
            "answer",
            "teile",
            "teilen",
            "teil",
            "let",
            "ask",
            "by email",
            "by e-mail",
            "via email",
            "via e-mail",
            "per e-mail",
            "per mail",
            "par e-mail",
            "par mail",
            "por correo",
            "por email",
            "message",
            "contact",
            "inform",
            "informe",
            "informer",
            "informiere",
            "notify",
            "publie",
            "publier",
            "publica",
            "publicar",
            "avisa",
            "avisar",
            "contesta",
            "contestar",
        ],
        stems: &[
            "forward",
            "reply",
            "replie",
            "respond",
            "publish",
            "upload",
            "broadcast",
            "announc",
            "submit",
            "shar",
            "mailen",
            "versend",
            "weiterleit",
            "antwort",
            "benachrichtig",
            "veröffentlich",
            "hochlad",
            "répond",
            "repond",
            "partag",
            "prévien",
            "previen",
            "courriel",
            "envoi",
            "envoy",
            "reenv",
            "reenví",
            "compart",
            "notific",
            "correo",
            "sube",
            "subir",
            "let them know",
        ],
    },
    // Sharing is giving access: `share it with them`, `give Ann edit
    // rights`.
    Words {
        effects: SHARE,
        whole: &[
            "share",
            "give",
            "grant",
            "access",
            "rights",
            "permission",
            "permissions",
            "zugriff",
            "droits",
            "permisos",
            "gib",
            "donne",
            "dale",
        ],
        stems: &["shar", "freigeb", "partag", "compart"],
    },
    Words {
        effects: PAY,
        whole: &[
            "payment", "payments", "zahlung", "paiement", "pago", "pay", "paid", "pays", "wire",
            "buy", "bought", "zahl", "zahle", "paie", "paye", "payer", "pague", "paga", "pagar",
            "compra", "comprar", "kauf", "kaufe", "kaufen", "achète", "acheter", "vire", "virer",
        ],
        stems: &[
            "refund",
            "reimburs",
            "remit",
            "settl",
            "donat",
            "purchas",
            "bezahl",
            "überweis",
            "erstatt",
            "rembours",
            "virement",
            "reembols",
            "devuelv",
            "devolv",
            "abona",
        ],
    },
    Words {
        effects: INVITE,
        whole: &["onboard", "include", "lade"],
        stems: &[
            "invit",
            "einlad",
            "freigeb",
            "zugriff",
            "accès",
            "acces",
            "incluy",
            "acceso",
            "collaborat",
        ],
    },
    Words {
        effects: CREATE_INVITE_MODIFY,
        whole: &[
            "add", "adds", "füge", "fügen", "ajoute", "ajouter", "añade", "añadir", "agrega",
            "agregar",
        ],
        stems: &["hinzufüg", "hinzufueg", "ajout", "anad", "añad", "agreg"],
    },
    Words {
        effects: ARRANGE,
        whole: &["set up", "setup", "plan", "plane", "planen", "schedule"],
        stems: &[
            "scheduling",
            "arrang",
            "organiz",
            "organis",
            "planifi",
            "programa",
            "programe",
            "agendar",
        ],
    },
    Words {
        effects: CREATE,
        whole: &[
            "make", "draft", "write", "open", "file", "log", "note", "save", "record", "start",
            "put", "copy", "comment", "anlegen", "commente", "comenta", "crée", "créer", "cree",
            "crea", "crear", "abre", "abrir", "ouvre", "ouvrir", "note", "noter", "anota",
            "guarda",
        ],
        stems: &[
            "creat",
            "append",
            "insert",
            "generat",
            "writ",
            "erstell",
            "anleg",
            "notier",
            "speicher",
            "schreib",
            "eintrag",
            "enregistr",
            "écri",
            "ecri",
            "rédig",
            "redig",
            "escrib",
            "registr",
            "redact",
            "duplicat",
            "kommentier",
        ],
    },
    Words {
        effects: MODIFY,
        whole: &[
            "set", "fix", "tag", "mark", "close", "closes", "closed", "closing", "move", "swap",
            "bump", "edit", "mets", "mettre", "setz", "setze", "stell", "stelle", "mueve", "mover",
            "cambia",
        ],
        stems: &[
            "updat",
            "chang",
            "modif",
            "renam",
            "reschedul",
            "postpon",
            "shift",
            "correct",
            "adjust",
            "assign",
            "label",
            "reopen",
            "merge",
            "resolv",
            "escalat",
            "replac",
            "switch",
            "amend",
            "upgrad",
            "approv",
            "reject",
            "enabl",
            "disabl",
            "configur",
            "restor",
            "reset",
            "änder",
            "aender",
            "bearbeit",
            "aktualisier",
            "verschieb",
            "umbenenn",
            "korrigier",
            "schließ",
            "schliess",
            "zuweis",
            "déplac",
            "deplac",
            "renomm",
            "corrig",
            "reprogramm",
            "décal",
            "decal",
            "ferm",
            "attribu",
            "modific",
            "cambi",
            "actualiz",
            "renombr",
            "pospon",
            "aplaz",
            "cierr",
            "cerr",
            "asign",
            "moved",
            "moving",
        ],
    },
    Words {
        effects: DELETE_MODIFY,
        whole: &[
            "cancel",
            "cancels",
            "cancelled",
            "canceled",
            "clear",
            "drop",
            "annule",
            "annuler",
            "anula",
            "anular",
        ],
        stems: &[
            "cancel", "storn", "absag", "kündig", "kuendig", "annul", "archiv",
        ],
    },
    Words {
        effects: DELETE,
        whole: &[
            "trash", "wipe", "purge", "kick", "revoke", "quita", "quitar", "vide", "vider",
        ],
        stems: &[
            "delet",
            "remov",
            "eras",
            "discard",
            "clean",
            "unsubscrib",
            "destroy",
            "uninvit",
            "get rid",
            "lösch",
            "loesch",
            "entfern",
            "räum",
            "raeum",
            "supprim",
            "effac",
            "retir",
            "nettoy",
            "borra",
            "elimin",
            "suprim",
            "limpi",
            "vacía",
            "vaciar",
            "desuscrib",
        ],
    },
    Words {
        effects: BOOK,
        whole: &[
            "book", "books", "booked", "order", "rent", "hire", "loue", "louer", "pide", "pedir",
            "buche", "buchen",
        ],
        stems: &[
            "booking", "reserv", "réserv", "bestell", "miet", "commande", "alquil", "encarg",
            "buchung",
        ],
    },
    Words {
        effects: EXECUTE,
        whole: &[
            "run", "runs", "rerun", "re-run", "build", "test", "tests", "retry", "ship", "lint",
            "lanza", "corre", "lance", "lancer", "baue", "bauen", "teste", "testen",
        ],
        stems: &[
            "execut",
            "deploy",
            "trigger",
            "restart",
            "launch",
            "install",
            "releas",
            "compil",
            "benchmark",
            "ausführ",
            "ausfuehr",
            "exécut",
            "déploi",
            "deploi",
            "relanc",
            "ejecut",
            "despleg",
            "despliega",
            "prueb",
        ],
    },
    // Coding work: a fix or a feature edits, creates and runs.
    Words {
        effects: CODE,
        whole: &[
            "fix",
            "fixes",
            "debug",
            "implement",
            "refactor",
            "repariere",
            "behebe",
            "corrige",
            "arregla",
            "implementa",
        ],
        stems: &[
            "implement",
            "refactor",
            "debugg",
            "beheb",
            "reparier",
            "arregl",
        ],
    },
    Words {
        effects: FETCH,
        whole: &[
            "visit",
            "browse",
            "website",
            "site",
            "page",
            "webpage",
            "link",
            "links",
            "url",
            "web",
            "online",
            "homepage",
            "fetch",
            "download",
            "article",
            "blog",
            "seite",
            "webseite",
            "lien",
            "página",
            "pagina",
            "enlace",
            "sitio",
            "herunterladen",
            "télécharge",
        ],
        stems: &[
            "websit",
            "homepag",
            "brows",
            "downloa",
            "descarg",
            "téléchar",
            "telechar",
        ],
    },
];

/// Words that are as often nouns (`the book`, `my schedule`, `the file`):
/// they ask only as a verb, first in their clause or after a word that
/// leads to one (`please book`, `can you email`, `I need to file`).
const VERB_ONLY: &[&str] = &[
    "email", "emails", "mail", "message", "text", "post", "answer", "contact", "file", "log",
    "note", "record", "order", "book", "plan", "schedule", "test", "tests", "build", "access",
    "draft", "start", "open", "copy", "rent", "tag", "mark", "set", "share", "run", "comment",
    "ask", "let", "give",
];
/// Words after which a word of [`VERB_ONLY`] is a verb.
const LEADS: &[&str] = &[
    "please",
    "pls",
    "and",
    "then",
    "also",
    "you",
    "to",
    "just",
    "kindly",
    "now",
    "i",
    "me",
    "let's",
    "lets",
    "quickly",
    "first",
    "finally",
    "bitte",
    "und",
    "dann",
    "auch",
    "et",
    "puis",
    "aussi",
    "favor",
    "y",
    "luego",
    "también",
    "tambien",
    "can",
    "could",
    "would",
    "will",
    "go",
    "ahead",
    "directly",
    "immediately",
    "still",
    "need",
    "must",
    "should",
    "want",
    "us",
];

/// Words that open a question.
const QUESTIONS: &[&str] = &[
    "how", "what", "what's", "why", "which", "where", "when", "who", "who's", "whom", "whose",
    "did", "does", "do", "is", "are", "was", "were", "wie", "was", "warum", "wann", "wer",
    "welche", "welcher", "comment", "pourquoi", "quel", "quelle", "quand", "qui", "est-ce", "cómo",
    "como", "qué", "que", "cuándo", "quién", "cuál", "¿cómo", "¿qué",
];
/// Words that say not to.
const NEGATIONS: &[&str] = &[
    "not",
    "don't",
    "dont",
    "never",
    "nicht",
    "kein",
    "keine",
    "nie",
    "pas",
    "jamais",
    "ne",
    "no",
    "nunca",
    "shouldn't",
    "mustn't",
    "without",
];

/// The effects a request of the user asks for.
pub(crate) fn asked(text: &str) -> Effects {
    let lower = text.to_lowercase();
    let mut out: Effects = 0;
    // Phrases of two words (`set up`, `get rid`, `let them know`).
    for w in TABLE {
        for phrase in w.whole.iter().chain(w.stems).filter(|p| p.contains(' ')) {
            if lower.contains(phrase) {
                out |= bits(w.effects);
            }
        }
    }
    // A link or a host asks to fetch it.
    if lower.contains("http://") || lower.contains("https://") || lower.contains("www.") {
        out |= Effect::Fetch.bit();
    }
    let breaks = |c: char| ".!?;:,\n()\"\u{2014}\u{2013}".contains(c);
    let apart = |c: char| !(c.is_alphanumeric() || c == '-' || c == '\'');
    for clause in lower.split(breaks) {
        let mut prev: Option<&str> = None;
        let words: Vec<&str> = clause
            .split(apart)
            .map(|w| w.trim_matches(|c| c == '-' || c == '\''))
            .filter(|w| !w.is_empty())
            .collect();
        // A question ("how do I run it?", "how much did I pay?") or a
        // clause that says not to ("X should not be invited") asks for
        // nothing.
        if words.first().is_some_and(|w| QUESTIONS.contains(w))
            || words.iter().any(|w| NEGATIONS.contains(w))
        {
            continue;
        }
        for word in words {
            let verb = prev.is_none_or(|p| LEADS.contains(&p));
            prev = Some(word);
            out |= word_asks(word, verb);
            if word.contains('-') {
                // `e-mail` is `email`.
                out |= word_asks(&word.replace('-', ""), verb);
            }
        }
    }
    out
}

/// What one word asks for; `verb`: it stands where a verb does.
fn word_asks(form: &str, verb: bool) -> Effects {
    let mut out: Effects = 0;
    for w in TABLE {
        let whole = w.whole.contains(&form) && (verb || !VERB_ONLY.contains(&form));
        let hit = whole
            || w.stems
                .iter()
                .any(|s| !s.contains(' ') && form.starts_with(s));
        if hit {
            out |= bits(w.effects);
        }
    }
    out
}

fn bits(effects: &[Effect]) -> Effects {
    effects.iter().fold(0, |acc, e| acc | e.bit())
}

/// A kind of value a request can leave to a source it names: an address
/// (e-mail addresses: "her address is on her homepage", "the same attendees
/// as the kickoff").
pub(crate) const ADDRESS: u8 = 1;
/// Links ("post the release link from #announcements").
pub(crate) const LINK: u8 = 2;
/// Account numbers ("refund the friend who sent me money last week").
pub(crate) const ACCOUNT: u8 = 4;

/// Words that name the kind of value taken from a source.
const KINDS: &[(u8, &[&str])] = &[
    (
        ADDRESS,
        &[
            "address",
            "addresses",
            "contact",
            "attendees",
            "attendee",
            "participants",
            "participant",
            "people",
            "guests",
            "invitees",
            "owner",
            "owners",
            "members",
            "recipients",
            "reviewers",
            "customer",
            "sender",
            "author",
            "requester",
            "person",
            "adresse",
            "adressen",
            "teilnehmer",
            "teilnehmern",
            "teilnehmende",
            "kunde",
            "kunden",
            "absender",
            "verantwortlichen",
            "destinataires",
            "expéditeur",
            "client",
            "dirección",
            "direccion",
            "participantes",
            "asistentes",
            "cliente",
            "remitente",
            "responsable",
            "responsables",
        ],
    ),
    (
        LINK,
        &[
            "link", "links", "url", "urls", "lien", "liens", "enlace", "enlaces",
        ],
    ),
    (
        ACCOUNT,
        &[
            "account",
            "iban",
            "konto",
            "kontonummer",
            "compte",
            "cuenta",
            "rib",
        ],
    ),
];

/// Phrases that name the transaction history as the source of an account
/// ("the friend who sent me money").
const PAID_ME: &[&str] = &[
    "sent me money",
    "paid me",
    "sent me",
    "mir geld",
    "m'a envoyé",
    "me envió",
    "me mandó",
];

/// Kind words that may name a street address too.
const STREET: &[&str] = &[
    "address",
    "addresses",
    "adresse",
    "adressen",
    "dirección",
    "direccion",
];
/// Words before [`STREET`] that make it a person's or an e-mail address.
const PERSONS: &[&str] = &[
    "her", "his", "their", "whose", "e-mail", "email", "mail", "contact", "ihre", "seine", "deren",
    "son", "sa", "leur", "su", "sus", "correo",
];

/// Words that make what follows the user's own.
const OWN: &[&str] = &[
    "my", "our", "mine", "mein", "meine", "meinem", "meinen", "meiner", "unser", "unsere",
    "unserem", "mon", "ma", "mes", "notre", "nos", "mi", "mis", "nuestro", "nuestra",
];

/// Words too common to name a source.
const STOP: &[&str] = &[
    "please", "with", "from", "that", "this", "their", "them", "they", "have", "about", "same",
    "each", "every", "last", "next", "week", "just", "also", "then", "into", "onto", "what",
    "when", "where", "which", "your", "mine", "it's", "its", "there", "here", "will", "would",
    "could", "should", "can't", "don't", "find", "you'll", "for", "thanks", "thank", "bitte",
    "dass", "eine", "einen", "einem", "dem", "der", "die", "das", "und", "pour", "dans", "avec",
    "sont", "est", "son", "sa", "ses", "para", "por", "con", "los", "las", "una", "del",
];

/// The kinds of value a request leaves to a source it names, and the words
/// that name the source (compact): the request's words of four letters
/// or more that are neither common nor verbs of an effect nor kind words,
/// and its numbers; `None` when it names no kind.
pub(crate) fn delegated(text: &str) -> Option<(u8, Vec<String>)> {
    let lower = text.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| {
            !(c.is_alphanumeric() || matches!(c, '-' | '.' | '_' | '#' | '@' | '/' | ':'))
        })
        .map(|w| w.trim_matches(|c: char| matches!(c, '-' | '.' | '_' | ':' | '/')))
        .filter(|w| !w.is_empty())
        .collect();
    let mut kinds = 0;
    for (kind, list) in KINDS {
        // `my account`, `our address`: the user's own, not one to take.
        let named = words.iter().enumerate().any(|(i, w)| {
            let prev = i.checked_sub(1).and_then(|j| words.get(j));
            list.contains(w)
                && !prev.is_some_and(|p| OWN.contains(p))
                // `address` alone is as often a street's (`e-mail me its
                // address`): a person's (`her address`) or an e-mail
                // address only.
                && (!STREET.contains(w) || prev.is_some_and(|p| PERSONS.contains(p)))
        });
        if named {
            kinds |= kind;
        }
    }
    let paid_me = PAID_ME.iter().any(|p| lower.contains(p));
    if paid_me {
        kinds |= ACCOUNT;
    }
    if kinds == 0 {
        return None;
    }
    let mut terms: Vec<String> = Vec::new();
    for w in words {
        let w = w.trim_start_matches('#');
        let digits = w.chars().all(|c| c.is_ascii_digit());
        let keep = if digits {
            w.len() >= 3
        } else {
            w.chars().count() >= 4
                && !STOP.contains(&w)
                && !is_verb(w)
                && !KINDS.iter().any(|(_, l)| l.contains(&w))
                && !w.contains('@')
        };
        if keep {
            // A link stands for its host: `https://ana.example/cv` is read
            // as `ana.example/cv`, which the call's URL holds.
            let host = w
                .split_once("//")
                .map_or(w, |(_, rest)| rest)
                .trim_start_matches("www.");
            let term = crate::flow::values::compact(host);
            if !term.is_empty() && !terms.contains(&term) {
                terms.push(term);
            }
        }
    }
    if paid_me {
        terms.push("transaction".to_owned());
    }
    (!terms.is_empty()).then_some((kinds, terms))
}

/// Whether a word is one of an effect's verbs: a whole word of one, or a
/// stem with an ending of at most three letters (`deleted`, `sending`; not
/// `announcements`).
fn is_verb(w: &str) -> bool {
    TABLE.iter().any(|t| {
        t.whole.contains(&w)
            || t.stems
                .iter()
                .any(|s| w.starts_with(s) && w.len() <= s.len() + 3)
    })
}

/// The kind of a compact value: an e-mail address, an account number, or
/// a link.
pub(crate) fn kind_of(value: &str) -> u8 {
    if value.contains('@') {
        ADDRESS
    } else if crate::flow::values::is_account(value) {
        ACCOUNT
    } else {
        LINK
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn has(text: &str, e: Effect) -> bool {
        asked(text) & e.bit() != 0
    }

    #[test]
    fn requests_ask_for_what_their_verbs_say_in_four_languages() {
        assert!(has("Please delete the old drafts", Effect::Delete));
        assert!(has("Lösche bitte die Datei notes.txt", Effect::Delete));
        assert!(has("Supprime le fichier brouillon", Effect::Delete));
        assert!(has("Borra el archivo viejo", Effect::Delete));
        assert!(has("Book me a table for two", Effect::Book));
        assert!(has("Reservier ein Hotel in Wien", Effect::Book));
        assert!(has("Réserve une voiture à Lyon", Effect::Book));
        assert!(has("Reserva un hotel en Lisboa", Effect::Book));
        assert!(has("E-mail the report to Ann", Effect::Send));
        assert!(has("Schick Ann den Bericht", Effect::Send));
        assert!(has("Envoie le rapport à Ann", Effect::Send));
        assert!(has("Envía el informe a Ann", Effect::Send));
        assert!(has("Pay the June bill", Effect::Pay));
        assert!(has("Bezahle die Rechnung", Effect::Pay));
        assert!(has("Schedule a meeting with Ann", Effect::Invite));
        assert!(has("Move my dentist appointment to Friday", Effect::Modify));
        assert!(has("Rerun the failed CI job", Effect::Execute));
        assert!(has("Summarise https://news.example/a", Effect::Fetch));
    }

    #[test]
    fn requests_leave_values_to_sources_they_name() {
        let (kinds, terms) =
            delegated("Send Ana the slides; her address is on her homepage anaruiz.net").unwrap();
        assert_eq!(kinds, ADDRESS);
        assert!(terms.contains(&"anaruiz.net".to_owned()), "{terms:?}");
        assert!(!terms.contains(&"send".to_owned()), "{terms:?}");
        let (kinds, terms) = delegated("Refund the friend who sent me money last week").unwrap();
        assert_eq!(kinds, ACCOUNT);
        assert!(terms.contains(&"transaction".to_owned()), "{terms:?}");
        let (kinds, terms) =
            delegated("Post the release link from #announcements to #general").unwrap();
        assert_eq!(kinds, LINK);
        assert!(terms.contains(&"announcements".to_owned()), "{terms:?}");
        assert!(delegated("Send the report to ana@corp.example").is_none());
        assert!(
            delegated("Check the reviews of The Chiado House and email me its address").is_none()
        );
        assert_eq!(kind_of("ana@corp.example"), ADDRESS);
        assert_eq!(kind_of("de89370400440532013000"), ACCOUNT);
        assert_eq!(kind_of("https://ana.example/x"), LINK);
    }

    #[test]
    fn questions_ask_for_nothing_that_acts() {
        for text in [
            "What's on my calendar tomorrow?",
            "Summarise my unread e-mails from today",
            "How much did I spend on groceries last month?",
            "Which hotels in Paris have the best reviews?",
            "What is Ann's address?",
        ] {
            let a = asked(text);
            for e in [
                Effect::Delete,
                Effect::Book,
                Effect::Pay,
                Effect::Execute,
                Effect::Invite,
                Effect::Create,
                Effect::Modify,
            ] {
                assert_eq!(a & e.bit(), 0, "{text}: {e:?}");
            }
        }
    }
}
