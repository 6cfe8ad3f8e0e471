//! Serving agent skills: [`Server::with_skills`].

use super::Server;
use crate::resources::DuplicateResource;
use crate::skills::Skills;
use crate::toolbox::Resource as _;

impl Server {
    /// Serves `skills` (the skills extension, SEP-2640): each file becomes a
    /// resource of the toolbox, `skills/list`, `skills/get` and
    /// `resources/directory/read` answer from them, and the extension is
    /// advertised in `initialize` and `server/discover`. Skills set before
    /// are replaced (their files' resources removed).
    ///
    /// ```
    /// # fn demo(toolbox: codeagent_core::toolbox::Toolbox) -> Result<(), Box<dyn std::error::Error>> {
    /// use codeagent_core::server::Server;
    /// use codeagent_core::skills::Skills;
    ///
    /// let server = Server::new(toolbox).with_skills(Skills::from_dir("skills")?)?;
    /// # let _ = server; Ok(()) }
    /// ```
    ///
    /// # Errors
    ///
    /// When a resource of the toolbox already has the URI of a skill file;
    /// nothing is changed then.
    pub fn with_skills(mut self, skills: Skills) -> Result<Server, DuplicateResource> {
        let resources = self.engine.toolbox.resources();
        let replaced = |uri: &str| self.engine.skills.as_ref().is_some_and(|old| old.file(uri).is_some());
        let taken: Vec<String> = resources
            .specs()
            .iter()
            .filter_map(|spec| spec.uri().map(str::to_owned))
            .filter(|uri| !replaced(uri))
            .collect();
        for resource in skills.resources() {
            let uri = resource.spec().uri().unwrap_or_default();
            if taken.iter().any(|taken| taken == uri) {
                return Err(DuplicateResource::new(uri));
            }
        }
        if let Some(old) = self.engine.skills.take() {
            for resource in old.resources() {
                resources.remove(resource.spec().uri().unwrap_or_default());
            }
        }
        for resource in skills.resources() {
            resources.try_add(resource)?;
        }
        self.engine.skills = Some(skills);
        Ok(self)
    }
}
