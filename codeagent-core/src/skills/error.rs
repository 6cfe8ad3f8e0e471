//! What can be wrong with a directory of skills, each naming the file or
//! folder at fault.

use std::path::PathBuf;

/// Why a directory of skills could not be served; each names the file or
/// folder at fault.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SkillError {
    /// A file or folder could not be read.
    #[error("cannot read {}: {source}", path.display())]
    Unreadable {
        /// The file or folder.
        path: PathBuf,
        /// What the operating system said.
        source: std::io::Error,
    },
    /// The path given is not a folder.
    #[error("{} is not a folder of skills", path.display())]
    NotAFolder {
        /// The path given.
        path: PathBuf,
    },
    /// The folder holds no skill at all.
    #[error("{} holds no skill: a skill is a folder with a SKILL.md", path.display())]
    NoSkills {
        /// The folder given.
        path: PathBuf,
    },
    /// A folder outside every skill has no `SKILL.md`, and no skill inside.
    #[error("{} is not a skill: it has no SKILL.md, and no skill folder inside", path.display())]
    MissingSkillFile {
        /// The folder.
        path: PathBuf,
    },
    /// A file sits outside every skill folder.
    #[error("{} is not inside a skill folder (a folder with a SKILL.md)", path.display())]
    OutsideSkill {
        /// The file.
        path: PathBuf,
    },
    /// A `SKILL.md` whose frontmatter is missing or wrong.
    #[error("{}: {reason}", path.display())]
    Frontmatter {
        /// The `SKILL.md`.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// A skill whose frontmatter `name` is not its folder's name.
    #[error("{}: the frontmatter name `{name}` is not the skill folder's name `{folder}`", path.display())]
    NameMismatch {
        /// The `SKILL.md`.
        path: PathBuf,
        /// The frontmatter's `name`.
        name: String,
        /// The folder's name.
        folder: String,
    },
    /// A symbolic link to something outside the skills directory.
    #[error("{} links to {}, outside the skills directory {}", path.display(), target.display(), root.display())]
    LinkOutside {
        /// The link.
        path: PathBuf,
        /// Where it leads.
        target: PathBuf,
        /// The skills directory.
        root: PathBuf,
    },
    /// A symbolic link to a folder (only links to files are followed).
    #[error("{} is a symbolic link to a folder; only links to files are followed", path.display())]
    LinkedFolder {
        /// The link.
        path: PathBuf,
    },
    /// Something that is neither a file nor a folder (a socket, a device).
    #[error("{} is neither a file nor a folder", path.display())]
    NotAFile {
        /// The entry.
        path: PathBuf,
    },
    /// A file or folder whose name is not UTF-8, so it has no URI.
    #[error("{}: the name is not UTF-8, so it has no skill:// URI", path.display())]
    NameNotUtf8 {
        /// The entry.
        path: PathBuf,
    },
    /// A skill with more files than the extension allows.
    #[error("{}: the skill has {count} files; a skill may have at most {limit}", path.display())]
    TooManyFiles {
        /// The skill's folder.
        path: PathBuf,
        /// How many files it has.
        count: usize,
        /// [`MAX_FILES`](super::MAX_FILES).
        limit: usize,
    },
    /// A skill whose files add up to more bytes than the extension allows.
    #[error("{}: the skill's files add up to more than {limit} bytes", path.display())]
    TooLarge {
        /// The skill's folder.
        path: PathBuf,
        /// [`MAX_BYTES`](super::MAX_BYTES).
        limit: u64,
    },
    /// A file whose URI cannot be served as a resource.
    #[error("{}: no resource URI: {reason}", path.display())]
    InvalidUri {
        /// The file.
        path: PathBuf,
        /// Why.
        reason: String,
    },
}
