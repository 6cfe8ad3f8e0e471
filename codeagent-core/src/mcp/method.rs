//! The names of the MCP methods and notifications codeagent speaks, so no
//! other module spells them as string literals.

use super::ProtocolVersion;

/// A request method a codeagent server answers.
///
/// ```
/// use codeagent_core::mcp::{Method, ProtocolVersion};
///
/// let method = Method::from_name("tools/call").unwrap();
/// assert_eq!(method, Method::ToolsCall);
/// assert!(method.exists_in(ProtocolVersion::V2024_11_05));
/// assert!(!Method::Ping.exists_in(ProtocolVersion::V2026_07_28));
/// assert_eq!(Method::from_name("tools/frobnicate"), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Method {
    /// `initialize`: the legacy handshake.
    Initialize,
    /// `ping` (legacy era).
    Ping,
    /// `logging/setLevel` (legacy era).
    SetLogLevel,
    /// `tools/list`.
    ToolsList,
    /// `tools/call`.
    ToolsCall,
    /// `resources/list`.
    ResourcesList,
    /// `resources/templates/list`.
    ResourceTemplatesList,
    /// `resources/read`.
    ResourcesRead,
    /// `resources/subscribe` (legacy era; 2026-07-28 subscribes on `subscriptions/listen`).
    ResourcesSubscribe,
    /// `resources/unsubscribe` (legacy era).
    ResourcesUnsubscribe,
    /// `prompts/list`.
    PromptsList,
    /// `prompts/get`.
    PromptsGet,
    /// `completion/complete`.
    Complete,
    /// `server/discover` (2026-07-28).
    Discover,
    /// `subscriptions/listen` (2026-07-28).
    SubscriptionsListen,
    /// `skills/list`: the skills extension's listing (SEP-2640).
    SkillsList,
    /// `skills/get`: one skill's entry by URI (SEP-2640).
    SkillsGet,
    /// `resources/directory/read`: a directory resource's children (SEP-2640).
    ResourcesDirectoryRead,
    /// `tasks/get`: a task's status, and its result once it ended (the tasks extension).
    TasksGet,
    /// `tasks/update`: answers to a task's questions (the tasks extension).
    TasksUpdate,
    /// `tasks/cancel`: stop a task (the tasks extension).
    TasksCancel,
}

impl Method {
    /// Every method, in the order the specification introduces them.
    pub const ALL: &'static [Method] = &[
        Method::Initialize,
        Method::Ping,
        Method::SetLogLevel,
        Method::ToolsList,
        Method::ToolsCall,
        Method::ResourcesList,
        Method::ResourceTemplatesList,
        Method::ResourcesRead,
        Method::ResourcesSubscribe,
        Method::ResourcesUnsubscribe,
        Method::PromptsList,
        Method::PromptsGet,
        Method::Complete,
        Method::Discover,
        Method::SubscriptionsListen,
        Method::SkillsList,
        Method::SkillsGet,
        Method::ResourcesDirectoryRead,
        Method::TasksGet,
        Method::TasksUpdate,
        Method::TasksCancel,
    ];

    /// The method's wire name.
    pub const fn name(self) -> &'static str {
        match self {
            Method::Initialize => "initialize",
            Method::Ping => "ping",
            Method::SetLogLevel => "logging/setLevel",
            Method::ToolsList => "tools/list",
            Method::ToolsCall => "tools/call",
            Method::ResourcesList => "resources/list",
            Method::ResourceTemplatesList => "resources/templates/list",
            Method::ResourcesRead => "resources/read",
            Method::ResourcesSubscribe => "resources/subscribe",
            Method::ResourcesUnsubscribe => "resources/unsubscribe",
            Method::PromptsList => "prompts/list",
            Method::PromptsGet => "prompts/get",
            Method::Complete => "completion/complete",
            Method::Discover => "server/discover",
            Method::SubscriptionsListen => "subscriptions/listen",
            Method::SkillsList => "skills/list",
            Method::SkillsGet => "skills/get",
            Method::ResourcesDirectoryRead => "resources/directory/read",
            Method::TasksGet => "tasks/get",
            Method::TasksUpdate => "tasks/update",
            Method::TasksCancel => "tasks/cancel",
        }
    }

    /// The method called `name`, when codeagent knows it.
    pub fn from_name(name: &str) -> Option<Method> {
        Method::ALL.iter().copied().find(|method| method.name() == name)
    }

    /// Whether a request of protocol version `version` may call this method.
    pub fn exists_in(self, version: ProtocolVersion) -> bool {
        match self {
            Method::Initialize
            | Method::Ping
            | Method::SetLogLevel
            | Method::ResourcesSubscribe
            | Method::ResourcesUnsubscribe => !version.is_modern(),
            Method::Discover | Method::SubscriptionsListen => version.is_modern(),
            Method::ToolsList
            | Method::ToolsCall
            | Method::ResourcesList
            | Method::ResourceTemplatesList
            | Method::ResourcesRead
            | Method::PromptsList
            | Method::PromptsGet
            | Method::Complete
            | Method::SkillsList
            | Method::SkillsGet
            | Method::ResourcesDirectoryRead
            | Method::TasksGet
            | Method::TasksUpdate
            | Method::TasksCancel => true,
        }
    }

    /// Whether every request of this method belongs to the modern era, whatever
    /// its `_meta` says.
    pub const fn is_modern_only(self) -> bool {
        matches!(self, Method::Discover | Method::SubscriptionsListen)
    }

    /// The parameter a 2026-07-28 HTTP client mirrors into the `Mcp-Name`
    /// header, for the methods that have one.
    pub const fn name_param(self) -> Option<&'static str> {
        match self {
            Method::ToolsCall | Method::PromptsGet => Some("name"),
            Method::ResourcesRead => Some("uri"),
            Method::TasksGet | Method::TasksUpdate | Method::TasksCancel => Some("taskId"),
            _ => None,
        }
    }
}

impl std::fmt::Display for Method {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A notification codeagent sends or understands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Notification {
    /// `notifications/initialized`: the client finished the legacy handshake.
    Initialized,
    /// `notifications/cancelled`: stop a request.
    Cancelled,
    /// `notifications/progress`: a request's progress.
    Progress,
    /// `notifications/message`: a log message.
    Message,
    /// `notifications/tools/list_changed`: tools were added or removed.
    ToolsListChanged,
    /// `notifications/resources/list_changed`: resources were added or removed.
    ResourcesListChanged,
    /// `notifications/resources/updated`: a subscribed resource changed.
    ResourcesUpdated,
    /// `notifications/prompts/list_changed`: prompts were added or removed.
    PromptsListChanged,
    /// `notifications/subscriptions/acknowledged`: a `subscriptions/listen`
    /// stream is open (2026-07-28).
    SubscriptionsAcknowledged,
    /// `notifications/tasks`: a task's status changed (the tasks extension).
    Tasks,
}

impl Notification {
    /// Every notification.
    pub const ALL: &'static [Notification] = &[
        Notification::Initialized,
        Notification::Cancelled,
        Notification::Progress,
        Notification::Message,
        Notification::ToolsListChanged,
        Notification::ResourcesListChanged,
        Notification::ResourcesUpdated,
        Notification::PromptsListChanged,
        Notification::SubscriptionsAcknowledged,
        Notification::Tasks,
    ];

    /// The notification's wire name.
    pub const fn name(self) -> &'static str {
        match self {
            Notification::Initialized => "notifications/initialized",
            Notification::Cancelled => "notifications/cancelled",
            Notification::Progress => "notifications/progress",
            Notification::Message => "notifications/message",
            Notification::ToolsListChanged => "notifications/tools/list_changed",
            Notification::ResourcesListChanged => "notifications/resources/list_changed",
            Notification::ResourcesUpdated => "notifications/resources/updated",
            Notification::PromptsListChanged => "notifications/prompts/list_changed",
            Notification::SubscriptionsAcknowledged => "notifications/subscriptions/acknowledged",
            Notification::Tasks => "notifications/tasks",
        }
    }

    /// The notification called `name`, when codeagent knows it.
    pub fn from_name(name: &str) -> Option<Notification> {
        Notification::ALL.iter().copied().find(|notification| notification.name() == name)
    }
}

impl std::fmt::Display for Notification {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::{Method, Notification};

    #[test]
    fn names_round_trip() {
        for method in Method::ALL {
            assert_eq!(Method::from_name(method.name()), Some(*method));
        }
        for notification in Notification::ALL {
            assert_eq!(Notification::from_name(notification.name()), Some(*notification));
        }
    }
}
