//! The conformance fixture's skills (`examples/conformance_fixture/skills`) as
//! they are on disk, read here without codeagent: what a server serving them
//! (`--skills`, `Server::with_skills`) must promise a client. Each skill's
//! `skill://` URI, its files with the SHA-256 digest and size a client
//! verifies, and the children of each of its folders.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

/// The fixture's skills folder, relative to the repository.
pub const FIXTURE_SKILLS: &str = "examples/conformance_fixture/skills";

/// The file that makes a folder a skill.
const SKILL_FILE: &str = "SKILL.md";

/// The fixture's skills folder.
pub fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(FIXTURE_SKILLS)
}

/// One file of a skill, as read from disk.
pub struct DiskFile {
    /// `skill://<skill-path>/<file-path>`.
    pub uri: String,
    /// Its content.
    pub bytes: Vec<u8>,
}

impl DiskFile {
    /// `sha256:` and the lowercase hex SHA-256 of its content.
    pub fn digest(&self) -> String {
        sha256(&self.bytes)
    }

    /// Its length in bytes.
    pub fn size(&self) -> u64 {
        self.bytes.len() as u64
    }
}

/// One child of a folder: its URI, and whether it is a folder.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct DiskChild {
    pub uri: String,
    pub is_folder: bool,
}

/// One skill, as read from disk.
pub struct DiskSkill {
    /// The URI of its `SKILL.md`, which identifies it.
    pub uri: String,
    /// Its folder's name, which its frontmatter's `name` must be.
    pub name: String,
    /// Its `SKILL.md` as text.
    pub skill_md: String,
    /// Every file below its folder, by URI.
    pub files: Vec<DiskFile>,
    /// Its folder and each folder below it, by URI, with their direct children.
    pub folders: BTreeMap<String, Vec<DiskChild>>,
}

impl DiskSkill {
    /// The URIs of its files, in order.
    pub fn file_uris(&self) -> Vec<&str> {
        self.files.iter().map(|file| file.uri.as_str()).collect()
    }
}

/// `sha256:` and the lowercase hex SHA-256 of `bytes`.
pub fn sha256(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    hmac_sha256::Hash::hash(bytes).iter().fold(String::from("sha256:"), |mut hex, byte| {
        let _ = write!(hex, "{byte:02x}");
        hex
    })
}

/// The fixture's skills, in URI order.
pub fn fixture() -> Vec<DiskSkill> {
    on_disk(&fixture_dir())
}

/// The skills of folder `root`, in URI order: every folder holding a
/// `SKILL.md`, with every file and folder below it (names starting with a
/// dot left out, as a server leaves them out).
pub fn on_disk(root: &Path) -> Vec<DiskSkill> {
    let mut skills = Vec::new();
    find(root, root, &mut skills);
    skills.sort_by(|a, b| a.uri.cmp(&b.uri));
    assert!(!skills.is_empty(), "no skill under {}", root.display());
    skills
}

/// Adds the skills at or below `dir` to `skills`.
fn find(root: &Path, dir: &Path, skills: &mut Vec<DiskSkill>) {
    if dir.join(SKILL_FILE).is_file() {
        skills.push(read_skill(root, dir));
    }
    for (path, is_folder) in entries(dir) {
        if is_folder {
            find(root, &path, skills);
        }
    }
}

/// The skill whose folder is `dir`.
fn read_skill(root: &Path, dir: &Path) -> DiskSkill {
    let mut skill = DiskSkill {
        uri: format!("{}/{SKILL_FILE}", uri_of(root, dir)),
        name: dir.file_name().expect("a named folder").to_string_lossy().into_owned(),
        skill_md: fs::read_to_string(dir.join(SKILL_FILE)).expect("a readable SKILL.md"),
        files: Vec::new(),
        folders: BTreeMap::new(),
    };
    walk(root, dir, &mut skill);
    skill.files.sort_by(|a, b| a.uri.cmp(&b.uri));
    skill
}

/// Adds folder `dir` of `skill`, and everything below it.
fn walk(root: &Path, dir: &Path, skill: &mut DiskSkill) {
    let mut children = Vec::new();
    for (path, is_folder) in entries(dir) {
        let uri = uri_of(root, &path);
        if is_folder {
            walk(root, &path, skill);
        } else {
            skill.files.push(DiskFile { uri: uri.clone(), bytes: fs::read(&path).expect("a readable file") });
        }
        children.push(DiskChild { uri, is_folder });
    }
    children.sort();
    skill.folders.insert(uri_of(root, dir), children);
}

/// The entries of `dir` not starting with a dot, with whether each is a folder.
fn entries(dir: &Path) -> Vec<(PathBuf, bool)> {
    let mut entries: Vec<(PathBuf, bool)> = fs::read_dir(dir)
        .unwrap_or_else(|error| panic!("cannot read {}: {error}", dir.display()))
        .map(|entry| entry.expect("a folder entry").path())
        .filter(|path| !path.file_name().is_some_and(|name| name.to_string_lossy().starts_with('.')))
        .map(|path| {
            let is_folder = path.is_dir();
            (path, is_folder)
        })
        .collect();
    entries.sort();
    entries
}

/// The `skill://` URI of `path`, below `root` (the fixture's names need no
/// percent-encoding).
fn uri_of(root: &Path, path: &Path) -> String {
    let relative = path.strip_prefix(root).expect("a path below the skills folder");
    let segments: Vec<String> = relative.iter().map(|part| part.to_string_lossy().into_owned()).collect();
    assert!(
        segments
            .iter()
            .flat_map(|segment| segment.bytes())
            .all(|byte| byte.is_ascii_alphanumeric() || b"-._~".contains(&byte)),
        "{}: a fixture name that would need percent-encoding",
        relative.display()
    );
    format!("skill://{}", segments.join("/"))
}
