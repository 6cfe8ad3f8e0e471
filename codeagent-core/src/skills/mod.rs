//! Agent skills served over MCP: the skills extension (SEP-2640,
//! `io.modelcontextprotocol/skills`).
//!
//! [`Skills::from_dir`] reads a directory of [Agent Skills](https://agentskills.io/specification)
//! once: every folder with a `SKILL.md` is a skill, named by the `name` of the
//! file's YAML frontmatter, which must be the folder's name; folders above
//! skills are an organisational prefix (`acme/billing/refunds`); a skill folder
//! inside another is a nested skill, published on its own too. Each file is
//! kept in memory with its SHA-256 digest and size, so what a client reads is
//! exactly what the listing promised, and [`Server::with_skills`](crate::server::Server::with_skills)
//! serves them:
//!
//! - each file as a resource, `skill://<skill-path>/<file-path>` (the
//!   `SKILL.md` named and described by its frontmatter, `text/markdown`);
//! - `skills/list` (paginated, with `ttlMs` and `cacheScope` in 2026-07-28)
//!   and `skills/get`, whose entries carry the verbatim frontmatter and every
//!   file's `uri`, `digest` and `size`;
//! - `resources/directory/read` on the skill folders and their subfolders
//!   (`inode/directory`);
//! - the extension in the capabilities of `initialize` and `server/discover`,
//!   `{"directoryRead": true}`.
//!
//! Names starting with a dot (`.git`, `.DS_Store`) are skipped. A symbolic
//! link is followed only to a file inside the directory. A skill has at most
//! [`MAX_FILES`] files and [`MAX_BYTES`] bytes. Anything else wrong is a
//! [`SkillError`] naming the file or folder.

mod dir;
mod error;
mod file;
mod frontmatter;

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use serde_json::{Map, Value, json};

pub use error::SkillError;
pub use file::SkillFile;

use crate::mcp::ProtocolVersion;
use crate::toolbox::ResourceSpec;
use file::{FileResource, MARKDOWN};

/// The extension's identifier, the key of its capability.
pub const EXTENSION: &str = "io.modelcontextprotocol/skills";

/// The file that makes a folder a skill.
pub const SKILL_FILE: &str = "SKILL.md";

/// The MIME type of a directory resource.
pub const DIRECTORY_MIME_TYPE: &str = "inode/directory";

/// The most files one skill may have (its `SKILL.md` included).
pub const MAX_FILES: usize = 512;

/// The most bytes one skill's files may add up to: 16 MiB.
pub const MAX_BYTES: u64 = 16 * 1024 * 1024;

/// The URI scheme of served skills.
const SCHEME: &str = "skill://";

/// A directory of skills, read once: cheap to clone, never changing.
#[derive(Clone, Debug)]
pub struct Skills {
    catalog: Arc<Catalog>,
}

#[derive(Debug)]
struct Catalog {
    skills: Vec<Skill>,
    /// Every file once (a nested skill's files are its enclosing skill's too),
    /// with the resource description it is listed by.
    files: Vec<(SkillFile, ResourceSpec)>,
    /// The children of each directory resource, by its URI.
    directories: BTreeMap<String, Vec<Child>>,
}

/// A direct child of a directory resource.
#[derive(Debug)]
enum Child {
    /// A file: its index in `Catalog::files`.
    File(usize),
    /// A folder: its URI and name.
    Folder { uri: String, name: String },
}

/// One skill: its `SKILL.md` URI, frontmatter and files.
#[derive(Clone, Debug)]
pub struct Skill {
    uri: String,
    path: String,
    frontmatter: Map<String, Value>,
    files: Vec<SkillFile>,
}

impl Skill {
    /// The URI of its `SKILL.md`, which identifies it.
    pub fn uri(&self) -> &str {
        &self.uri
    }

    /// Its skill path, `/`-separated: the organisational prefix and its name
    /// (`acme/billing/refunds`).
    pub fn path(&self) -> &str {
        &self.path
    }

    /// Its name, from the frontmatter (the last segment of its path).
    pub fn name(&self) -> &str {
        self.frontmatter.get("name").and_then(Value::as_str).unwrap_or_default()
    }

    /// Its description, from the frontmatter.
    pub fn description(&self) -> &str {
        self.frontmatter.get("description").and_then(Value::as_str).unwrap_or_default()
    }

    /// Its `SKILL.md` frontmatter as JSON, every field as written.
    pub fn frontmatter(&self) -> &Map<String, Value> {
        &self.frontmatter
    }

    /// Its files, `SKILL.md` first, then in path order (a nested skill's
    /// included).
    pub fn files(&self) -> &[SkillFile] {
        &self.files
    }

    /// Its entry in `skills/list` and `skills/get`: `uri`, `frontmatter` and
    /// `resources`, each file's `uri`, `digest` and `size`.
    pub fn entry(&self) -> Value {
        let resources: Vec<Value> = self
            .files
            .iter()
            .map(|file| json!({ "uri": file.uri(), "digest": file.digest(), "size": file.size() }))
            .collect();
        json!({ "uri": self.uri, "frontmatter": self.frontmatter, "resources": resources })
    }
}

impl Skills {
    /// Reads every skill of directory `dir` (or the one skill `dir` is, when
    /// it has a `SKILL.md` itself), with each file's content, digest and size.
    ///
    /// # Errors
    ///
    /// A [`SkillError`] naming the file or folder at fault: a folder with no
    /// `SKILL.md` and no skill inside, a file outside every skill, frontmatter
    /// missing or invalid (no `name` or `description`, a name breaking the
    /// naming rules or not the folder's), a link leading outside `dir` or to a
    /// folder, a skill over [`MAX_FILES`] or [`MAX_BYTES`], an unreadable file.
    pub fn from_dir(dir: impl AsRef<Path>) -> Result<Skills, SkillError> {
        let dir = dir.as_ref();
        let mut catalog = Catalog { skills: Vec::new(), files: Vec::new(), directories: BTreeMap::new() };
        for read in dir::read(dir)? {
            catalog.add(dir, read)?;
        }
        Ok(Skills { catalog: Arc::new(catalog) })
    }

    /// The skills, in path order (an enclosing skill before those nested in it).
    pub fn iter(&self) -> std::slice::Iter<'_, Skill> {
        self.catalog.skills.iter()
    }

    /// How many skills there are.
    pub fn len(&self) -> usize {
        self.catalog.skills.len()
    }

    /// Whether there is none (never, for skills read from a directory).
    pub fn is_empty(&self) -> bool {
        self.catalog.skills.is_empty()
    }

    /// The skill whose `SKILL.md` is at `uri`.
    pub fn get(&self, uri: &str) -> Option<&Skill> {
        self.catalog.skills.iter().find(|skill| skill.uri == uri)
    }

    /// The file at `uri`.
    pub fn file(&self, uri: &str) -> Option<&SkillFile> {
        self.catalog.files.iter().map(|(file, _)| file).find(|file| file.uri() == uri)
    }

    /// The skills as they are listed, for `Page::of`.
    pub(crate) fn as_slice(&self) -> &[Skill] {
        &self.catalog.skills
    }

    /// The direct children of directory resource `uri`, as `resources/list`
    /// entries for `version`.
    pub(crate) fn children(&self, uri: &str, version: ProtocolVersion) -> Option<Vec<Value>> {
        let children = self.catalog.directories.get(uri)?;
        Some(
            children
                .iter()
                .map(|child| match child {
                    Child::File(index) => self.catalog.files[*index].1.to_wire(version),
                    Child::Folder { uri, name } => json!({ "uri": uri, "name": name, "mimeType": DIRECTORY_MIME_TYPE }),
                })
                .collect(),
        )
    }

    /// The resources that serve the files, each once.
    pub(crate) fn resources(&self) -> impl Iterator<Item = impl crate::toolbox::Resource> + '_ {
        self.catalog.files.iter().map(|(file, spec)| FileResource { spec: spec.clone(), file: file.clone() })
    }
}

impl Catalog {
    /// Adds outermost skill folder `read` of directory `root`: its files,
    /// folders and skills.
    fn add(&mut self, root: &Path, read: dir::ReadSkill) -> Result<(), SkillError> {
        let skill_path = |inner: &[String]| [read.segments.as_slice(), inner].concat();
        let first = self.files.len();
        // The frontmatter of the skill whose SKILL.md each file is.
        let own: BTreeMap<&[String], &Map<String, Value>> =
            read.skills.iter().map(|(inner, frontmatter)| (inner.as_slice(), frontmatter)).collect();
        for file in &read.files {
            let uri = uri(&skill_path(&file.segments));
            let shown = file.segments.iter().fold(root.join(read.segments.join("/")), |path, part| path.join(part));
            let described = file
                .segments
                .split_last()
                .filter(|(last, _)| last.as_str() == SKILL_FILE)
                .and_then(|(_, inner)| own.get(inner));
            let name = described
                .and_then(|frontmatter| frontmatter.get("name"))
                .and_then(Value::as_str)
                .map_or_else(|| skill_path(&file.segments).join("/"), str::to_owned);
            let skill_file = SkillFile::new(uri.clone(), file.segments.join("/"), file.bytes.clone());
            let mut spec = ResourceSpec::fixed(uri, name)
                .map_err(|error| SkillError::InvalidUri { path: shown, reason: error.to_string() })?
                .with_mime_type(skill_file.mime_type())
                .with_size(skill_file.size());
            if let Some(description) = described.and_then(|frontmatter| frontmatter.get("description")) {
                spec = spec.with_description(description.as_str().unwrap_or_default()).with_mime_type(MARKDOWN);
            }
            self.files.push((skill_file, spec));
        }
        let files = &self.files[first..];
        for (inner, frontmatter) in &read.skills {
            let path = skill_path(inner);
            let prefix = format!("{}/", uri(&path));
            let skill_uri = format!("{prefix}{SKILL_FILE}");
            // SKILL.md first, then the rest in path order.
            let mut own_files: Vec<SkillFile> =
                files.iter().map(|(file, _)| file).filter(|file| file.uri().starts_with(&prefix)).cloned().collect();
            own_files.sort_by_key(|file| file.uri() != skill_uri);
            self.skills.push(Skill {
                uri: skill_uri,
                path: path.join("/"),
                frontmatter: frontmatter.clone(),
                files: own_files,
            });
        }
        // The folders: the skill's own and each below it, with their children.
        let folders = std::iter::once(Vec::new()).chain(read.folders.iter().cloned());
        for folder in folders {
            let folder_uri = uri(&skill_path(&folder));
            let mut children = Vec::new();
            for (index, (file, _)) in self.files.iter().enumerate().skip(first) {
                if file.uri().rsplit_once('/').map(|(parent, _)| parent) == Some(folder_uri.as_str()) {
                    children.push(Child::File(index));
                }
            }
            for sub in read.folders.iter().filter(|sub| sub.len() == folder.len() + 1 && sub.starts_with(&folder)) {
                let name = sub.last().cloned().unwrap_or_default();
                children.push(Child::Folder { uri: uri(&skill_path(sub)), name });
            }
            self.directories.insert(folder_uri, children);
        }
        self.skills.sort_by(|a, b| a.path.cmp(&b.path));
        Ok(())
    }
}

/// The `skill://` URI of `segments`, each percent-encoded but for RFC 3986's
/// unreserved characters.
fn uri(segments: &[String]) -> String {
    use std::fmt::Write as _;
    let mut uri = String::from(SCHEME);
    for (index, segment) in segments.iter().enumerate() {
        if index > 0 {
            uri.push('/');
        }
        for byte in segment.bytes() {
            if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
                uri.push(char::from(byte));
            } else {
                let _ = write!(uri, "%{byte:02X}");
            }
        }
    }
    uri
}

#[cfg(test)]
mod tests;
