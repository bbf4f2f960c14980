//! The closed vocabularies of the wire format: stages, decision kinds,
//! severities, finding actions, resource kinds, stakes and modes.

use std::fmt;

use serde::{Deserialize, Serialize};

macro_rules! wire_enum {
    (
        $(#[$meta:meta])*
        $name:ident $([$($derive:path),*])? { $( $(#[$vmeta:meta])* $variant:ident => $wire:literal ),+ $(,)? }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize $($(, $derive)*)?)]
        #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
        pub enum $name {
            $( $(#[$vmeta])* #[serde(rename = $wire)] $variant, )+
        }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The value's spelling on the wire.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $wire,)+
                }
            }

            /// Parses the wire spelling; `None` for anything else.
            pub fn from_wire(s: &str) -> Option<Self> {
                match s {
                    $($wire => Some($name::$variant),)+
                    _ => None,
                }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

wire_enum! {
    /// Where in an agent's loop a check is made.
    #[non_exhaustive]
    Stage {
        /// A user prompt or other text entering the model.
        Input => "input",
        /// Text the model produced, possibly streamed.
        Output => "output",
        /// A tool call, before the tool runs.
        ToolUse => "tool_use",
        /// A tool's result, before it enters the model's context.
        ToolOutput => "tool_output",
        /// A structured intended action (write a file, run a process, deploy).
        Action => "action",
    }
}

wire_enum! {
    /// The answer to a check.
    ///
    /// Matched exhaustively by design: a new kind of answer is a breaking change.
    DecisionKind {
        /// The request may proceed unchanged.
        Allow => "allow",
        /// The request must not proceed.
        Block => "block",
        /// A human must confirm before the request proceeds.
        Ask => "ask",
        /// The request may proceed with the payload in `modified`.
        Modify => "modify",
        /// The request could not be evaluated (only on transports without another error channel).
        Error => "error",
    }
}

wire_enum! {
    /// How serious a finding is.
    #[non_exhaustive]
    Severity [Default] {
        /// Informational.
        Info => "info",
        /// Low.
        Low => "low",
        /// Medium (the default).
        #[default]
        Medium => "medium",
        /// High.
        High => "high",
        /// Critical.
        Critical => "critical",
    }
}

wire_enum! {
    /// What a finding did to the decision.
    #[non_exhaustive]
    FindingAction {
        /// The finding blocks the request.
        Block => "block",
        /// The finding needs a human's confirmation.
        Ask => "ask",
        /// The matched span was replaced in `modified`.
        Redact => "redact",
        /// The finding is reported as a warning.
        Warn => "warn",
        /// The finding is only logged (also every hit in advisory mode).
        Log => "log",
        /// An async check could not give an answer and the request was let through.
        FailOpen => "fail_open",
    }
}

wire_enum! {
    /// The kind of resource an action touches.
    #[non_exhaustive]
    ResourceKind {
        /// A file or directory.
        File => "file",
        /// A process to execute or spawn.
        Process => "process",
        /// A network destination.
        Network => "network",
        /// Anything else.
        Custom => "custom",
    }
}

wire_enum! {
    /// How much is at stake in an action.
    #[non_exhaustive]
    Stakes [Default] {
        /// Low.
        Low => "low",
        /// Medium (the default).
        #[default]
        Medium => "medium",
        /// High.
        High => "high",
        /// Critical.
        Critical => "critical",
    }
}

wire_enum! {
    /// Whether a policy enforces its checks or only reports them.
    #[non_exhaustive]
    Mode [Default] {
        /// Checks enforce their `on_fail` action (the default).
        #[default]
        Active => "active",
        /// Every hit is reported but downgraded to `log`: nothing is blocked or changed.
        Advisory => "advisory",
    }
}

impl DecisionKind {
    /// Whether a request with this decision may proceed (`allow` or `modify`).
    pub const fn is_allowed(self) -> bool {
        match self {
            DecisionKind::Allow | DecisionKind::Modify => true,
            DecisionKind::Block | DecisionKind::Ask | DecisionKind::Error => false,
        }
    }
}

impl FindingAction {
    /// Whether a finding with this action is a violation (`block` or `ask`)
    /// rather than a warning.
    pub const fn is_violation(self) -> bool {
        matches!(self, FindingAction::Block | FindingAction::Ask)
    }
}
