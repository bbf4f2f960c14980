//! The v1 check request: what an agent runtime asks Palisade about.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::{PROTOCOL_VERSION, ResourceKind, Stage, Stakes};

/// A JSON object with arbitrary members.
pub type Object = Map<String, Value>;

/// A request to evaluate one thing an agent is about to see or do.
///
/// A pi `GuardrailsCheckV1` request is a valid `CheckRequest` as it stands.
/// Every field is optional; which ones matter depends on the [`Stage`]
/// (see [`CheckRequest::effective_stage`]).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct CheckRequest {
    /// Protocol version; `"1"` when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(extend("enum" = ["1", null])))]
    pub protocol_version: Option<String>,
    /// Caller's correlation id, echoed in the decision; generated when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(length(min = 1)))]
    pub request_id: Option<String>,
    /// Where in the agent's loop the check is made; inferred when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stage: Option<Stage>,
    /// Tenant whose policy applies; transports may set it from credentials.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tenant: Option<String>,
    /// The agent session the request belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    /// The agent on whose behalf the check is made.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::object::option"
    )]
    pub agent: Option<Agent>,
    /// The component asking (for example a pi extension).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::object::option"
    )]
    pub caller: Option<Caller>,
    /// Free text to evaluate: a prompt, a model answer, a tool result.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
    /// The tool call (stages `tool_use` and `tool_output`).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::object::option"
    )]
    pub tool: Option<Tool>,
    /// The intended action (stage `action`).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::object::option"
    )]
    pub action: Option<Action>,
    /// Free-form context; `cwd`, `workspaceRoot` and `home` have meaning for path checks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "Option<Object>"))]
    pub context: Option<Object>,
    /// Evaluate only the checks with these ids (empty or absent: all).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checks: Option<Vec<String>>,
    /// Per-request options.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::object::option"
    )]
    pub options: Option<Options>,
    /// The approval this request is sent again under: the `approval.id` of
    /// an earlier `ask`. The request is allowed once when a person approved
    /// it and it is the same call (SPEC §15); otherwise it is decided as
    /// usual, with a finding saying why the approval did not apply.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(length(min = 1)))]
    pub approval_id: Option<String>,
    /// Members of the request's JSON that protocol v1 does not define, as
    /// JSON pointers (`/tool/argumens`), in the order read. Filled when the
    /// request is read from text (`palisade_engine::parse_request`); never
    /// written out. Free-form members (`context`, `tool.arguments`,
    /// `tool.output`, `action.attributes`, target `metadata`) hold anything
    /// and are not listed.
    #[serde(skip)]
    #[cfg_attr(feature = "schema", schemars(skip))]
    pub unknown_fields: Vec<String>,
}

/// The agent on whose behalf a check is made. All fields are optional.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Agent {
    /// Stable agent identifier.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Human-readable name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Where the agent can be reached.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// The agent's version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
}

/// The component asking for the check (a pi extension, a gateway).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Caller {
    /// The caller's identifier, such as `pi-mcp-adapter`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extension_id: Option<String>,
    /// The caller's version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extension_version: Option<String>,
}

/// A tool call and, at stage `tool_output`, its result.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Tool {
    /// The tool's name; must not be empty.
    #[cfg_attr(feature = "schema", schemars(length(min = 1)))]
    pub name: String,
    /// The call's arguments, any JSON.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<Value>,
    /// The runtime's id for this call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call_id: Option<String>,
    /// The tool's result: a string or any JSON.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output: Option<Value>,
    /// The tool's error message, when it failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The tool's description, as the runtime has it (an MCP server's
    /// `tools/list`, a function schema): what a flow rule reads a call's
    /// effect from when the tool's name and arguments do not say.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// An intended action: pi's normalized action and CSTP's described decision in one shape.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Action {
    /// What is done: `read`, `write`, `delete`, `list`, `stat`, `exec`, `spawn`, or any other word.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub operation: Option<String>,
    /// The resource acted upon.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::object::option"
    )]
    pub resource: Option<Resource>,
    /// The concrete targets (files, URLs).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::object::option_vec"
    )]
    pub targets: Option<Vec<Target>>,
    /// What the agent wants to do, in words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// A category of decision, such as `architecture`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
    /// How much is at stake; `medium` when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stakes: Option<Stakes>,
    /// The agent's confidence, from 0 to 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(range(min = 0.0, max = 1.0)))]
    pub confidence: Option<f64>,
    /// Further attributes of the action, such as `toolName`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "Option<Object>"))]
    pub attributes: Option<Object>,
}

/// The resource an action touches.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Resource {
    /// The resource's kind.
    pub kind: ResourceKind,
    /// A finer type chosen by the caller, such as `mcp-tool`.
    #[serde(default, rename = "type", skip_serializing_if = "Option::is_none")]
    pub resource_type: Option<String>,
    /// The resource's location.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uri: Option<String>,
}

/// One concrete target of an action.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Target {
    /// A `file://` URI, a path, or another URI; must not be empty.
    #[cfg_attr(feature = "schema", schemars(length(min = 1)))]
    pub uri: String,
    /// Caller-defined metadata.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "Option<Object>"))]
    pub metadata: Option<Object>,
}

/// Per-request options.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Options {
    /// Whether a human can be asked; `false` when absent, which turns `ask` into `block`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interactive: Option<bool>,
    /// Budget in milliseconds for async checks, capped by the configured budget.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_ms: Option<u64>,
    /// Without `approvalId`: use an approved, unused approval bound to this
    /// very call, if there is one (for hosts that send the same call again
    /// without the approval's id, such as coding agents' hooks). `false`
    /// when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub approval_by_call: Option<bool>,
}

impl CheckRequest {
    /// An empty request; fill it with the `with_*` methods or one of the stage constructors.
    pub fn new() -> Self {
        Self::default()
    }

    /// A check of text entering the model (stage `input`).
    pub fn input(content: impl Into<String>) -> Self {
        Self {
            stage: Some(Stage::Input),
            content: Some(content.into()),
            ..Self::default()
        }
    }

    /// A check of text the model produced (stage `output`).
    pub fn output(content: impl Into<String>) -> Self {
        Self {
            stage: Some(Stage::Output),
            content: Some(content.into()),
            ..Self::default()
        }
    }

    /// A check of a tool call before it runs (stage `tool_use`).
    pub fn tool_use(name: impl Into<String>, arguments: Value) -> Self {
        Self {
            stage: Some(Stage::ToolUse),
            tool: Some(Tool::new(name).with_arguments(arguments)),
            ..Self::default()
        }
    }

    /// A check of a tool's result before the model sees it (stage `tool_output`).
    pub fn tool_output(name: impl Into<String>, output: Value) -> Self {
        Self {
            stage: Some(Stage::ToolOutput),
            tool: Some(Tool::new(name).with_output(output)),
            ..Self::default()
        }
    }

    /// A check of an intended action (stage `action`).
    pub fn action(action: Action) -> Self {
        Self {
            stage: Some(Stage::Action),
            action: Some(action),
            ..Self::default()
        }
    }

    /// Sets the request id.
    pub fn with_request_id(mut self, id: impl Into<String>) -> Self {
        self.request_id = Some(id.into());
        self
    }

    /// Sets the stage explicitly.
    pub fn with_stage(mut self, stage: Stage) -> Self {
        self.stage = Some(stage);
        self
    }

    /// Sets the free text.
    pub fn with_content(mut self, content: impl Into<String>) -> Self {
        self.content = Some(content.into());
        self
    }

    /// Sets the tenant.
    pub fn with_tenant(mut self, tenant: impl Into<String>) -> Self {
        self.tenant = Some(tenant.into());
        self
    }

    /// Sets the session id.
    pub fn with_session_id(mut self, session: impl Into<String>) -> Self {
        self.session_id = Some(session.into());
        self
    }

    /// Sets the agent's id (keeping its other fields).
    pub fn with_agent_id(mut self, id: impl Into<String>) -> Self {
        self.agent.get_or_insert_with(Agent::default).id = Some(id.into());
        self
    }

    /// Sets one member of `context`.
    pub fn with_context(mut self, key: impl Into<String>, value: impl Into<Value>) -> Self {
        self.context
            .get_or_insert_with(Object::new)
            .insert(key.into(), value.into());
        self
    }

    /// Restricts evaluation to the checks with these ids.
    pub fn with_checks<I, S>(mut self, ids: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.checks = Some(ids.into_iter().map(Into::into).collect());
        self
    }

    /// Declares whether a human can be asked to confirm.
    pub fn interactive(mut self, interactive: bool) -> Self {
        self.options
            .get_or_insert_with(Options::default)
            .interactive = Some(interactive);
        self
    }

    /// Sends the request again under an approval (its `approval.id`).
    pub fn with_approval_id(mut self, id: impl Into<String>) -> Self {
        self.approval_id = Some(id.into());
        self
    }

    /// Sets the budget for async checks.
    pub fn with_timeout_ms(mut self, ms: u64) -> Self {
        self.options.get_or_insert_with(Options::default).timeout_ms = Some(ms);
        self
    }

    /// The stage this request is evaluated at.
    ///
    /// The explicit `stage` when given; else `action` if an action is present,
    /// else `tool_output` if the tool carries an `output` or `error`, else
    /// `tool_use` if a tool is present, else `input`.
    pub fn effective_stage(&self) -> Stage {
        if let Some(stage) = self.stage {
            return stage;
        }
        if self.action.is_some() {
            return Stage::Action;
        }
        match &self.tool {
            Some(tool) if tool.output.is_some() || tool.error.is_some() => Stage::ToolOutput,
            Some(_) => Stage::ToolUse,
            None => Stage::Input,
        }
    }

    /// The protocol version the request speaks (`"1"` when absent).
    pub fn protocol_version(&self) -> &str {
        self.protocol_version.as_deref().unwrap_or(PROTOCOL_VERSION)
    }

    /// Whether a human can be asked (`options.interactive`, default false).
    pub fn is_interactive(&self) -> bool {
        self.options
            .as_ref()
            .and_then(|o| o.interactive)
            .unwrap_or(false)
    }

    /// A string member of `context`, if present and a string.
    pub fn context_str(&self, key: &str) -> Option<&str> {
        self.context.as_ref()?.get(key)?.as_str()
    }

    /// Whether `checks` restricts evaluation to some ids.
    pub fn restricts_checks(&self) -> bool {
        self.checks.as_ref().is_some_and(|c| !c.is_empty())
    }
}

impl Tool {
    /// A tool with a name and nothing else.
    pub fn new(name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            ..Self::default()
        }
    }

    /// Sets the arguments.
    pub fn with_arguments(mut self, arguments: Value) -> Self {
        self.arguments = Some(arguments);
        self
    }

    /// Sets the result.
    pub fn with_output(mut self, output: Value) -> Self {
        self.output = Some(output);
        self
    }

    /// Sets the error message.
    pub fn with_error(mut self, error: impl Into<String>) -> Self {
        self.error = Some(error.into());
        self
    }

    /// Sets the call id.
    pub fn with_call_id(mut self, id: impl Into<String>) -> Self {
        self.call_id = Some(id.into());
        self
    }
}

impl Action {
    /// An action with an operation on a resource of some kind, such as
    /// `Action::new("write", ResourceKind::File)`.
    pub fn new(operation: impl Into<String>, kind: ResourceKind) -> Self {
        Self {
            operation: Some(operation.into()),
            resource: Some(Resource {
                kind,
                resource_type: None,
                uri: None,
            }),
            ..Self::default()
        }
    }

    /// A described action, as CSTP sends it: `Action::described("Deploy to production")`.
    pub fn described(description: impl Into<String>) -> Self {
        Self {
            description: Some(description.into()),
            ..Self::default()
        }
    }

    /// Adds a target.
    pub fn with_target(mut self, uri: impl Into<String>) -> Self {
        self.targets
            .get_or_insert_with(Vec::new)
            .push(Target::new(uri));
        self
    }

    /// Sets the description.
    pub fn with_description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// Sets the category.
    pub fn with_category(mut self, category: impl Into<String>) -> Self {
        self.category = Some(category.into());
        self
    }

    /// Sets the stakes.
    pub fn with_stakes(mut self, stakes: Stakes) -> Self {
        self.stakes = Some(stakes);
        self
    }

    /// Sets the confidence (checked by [`CheckRequest::validate`]).
    pub fn with_confidence(mut self, confidence: f64) -> Self {
        self.confidence = Some(confidence);
        self
    }

    /// Sets one attribute.
    pub fn with_attribute(mut self, key: impl Into<String>, value: impl Into<Value>) -> Self {
        self.attributes
            .get_or_insert_with(Object::new)
            .insert(key.into(), value.into());
        self
    }

    /// The stakes, `medium` when absent.
    pub fn stakes(&self) -> Stakes {
        self.stakes.unwrap_or_default()
    }
}

impl Target {
    /// A target with a URI and no metadata.
    pub fn new(uri: impl Into<String>) -> Self {
        Self {
            uri: uri.into(),
            metadata: None,
        }
    }
}
