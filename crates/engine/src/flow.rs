//! The session flow feature (`flow` checks, SPEC §13): what each session
//! has brought in so far ([`session`]), what a tool does ([`effects`]),
//! what the user asked for ([`intent`]),
//! the values a request carries and
//! how they are spelt ([`values`], [`spellings`], [`mime`]), and the step a
//! request adds to its session ([`step`]). The `flow` check itself — its
//! fields and the rules a sink is judged by — is
//! `policy::kinds::flow`, which reads from here.

pub(crate) mod effects;
pub(crate) mod intent;
pub(crate) mod mime;
pub(crate) mod session;
pub(crate) mod spellings;
pub(crate) mod step;
pub(crate) mod values;
