//! Reading a directory of skills: every folder with a `SKILL.md` is a skill,
//! folders above skills are an organisational prefix of their URIs, and
//! nothing may lead outside the directory.

use std::fs;
use std::path::{Path, PathBuf};

use super::error::SkillError;
use super::frontmatter;
use super::{MAX_BYTES, MAX_FILES, SKILL_FILE};

/// A file of a skill folder as read: its path below the folder and bytes.
pub(super) struct ReadFile {
    pub(super) segments: Vec<String>,
    pub(super) bytes: Vec<u8>,
}

/// One outermost skill folder as read: where it is, every file and folder
/// below it (nested skills' included), and the skills in it (itself first).
pub(super) struct ReadSkill {
    /// The skill path of the folder: its folders below the root.
    pub(super) segments: Vec<String>,
    pub(super) files: Vec<ReadFile>,
    /// Every folder below the skill's, as segments below it.
    pub(super) folders: Vec<Vec<String>>,
    /// The skills in the folder, as segments below it (`[]` first: the
    /// folder's own), each with its frontmatter.
    pub(super) skills: Vec<(Vec<String>, serde_json::Map<String, serde_json::Value>)>,
}

/// The directory being read: the path as given (for messages) and as the
/// file system resolves it (to keep links inside).
struct Root {
    given: PathBuf,
    real: PathBuf,
}

impl Root {
    /// `relative` as the user would name it.
    fn shown(&self, relative: &[String]) -> PathBuf {
        relative.iter().fold(self.given.clone(), |path, segment| path.join(segment))
    }

    fn real(&self, relative: &[String]) -> PathBuf {
        relative.iter().fold(self.real.clone(), |path, segment| path.join(segment))
    }
}

/// What an entry of a folder is, once links are followed.
enum Kind {
    File,
    Folder,
}

/// Every outermost skill of directory `given`, in name order.
pub(super) fn read(given: &Path) -> Result<Vec<ReadSkill>, SkillError> {
    let real = fs::canonicalize(given).map_err(|source| SkillError::Unreadable { path: given.to_owned(), source })?;
    if !real.is_dir() {
        return Err(SkillError::NotAFolder { path: given.to_owned() });
    }
    let root = Root { given: given.to_owned(), real };
    let mut skills = Vec::new();
    if has_skill_file(&root, &[])? {
        // The directory is one skill, named after its folder.
        let name = root.real.file_name().and_then(|name| name.to_str()).map(str::to_owned);
        let name = name.ok_or_else(|| SkillError::NameNotUtf8 { path: given.to_owned() })?;
        skills.push(read_skill(&root, &[], vec![name])?);
    } else {
        namespace(&root, &[], &mut skills)?;
    }
    if skills.is_empty() {
        return Err(SkillError::NoSkills { path: given.to_owned() });
    }
    Ok(skills)
}

/// The entries of folder `relative`, skipping hidden ones (`.git`,
/// `.DS_Store`), in name order, with what each is.
fn entries(root: &Root, relative: &[String]) -> Result<Vec<(String, Kind)>, SkillError> {
    let unreadable = |source| SkillError::Unreadable { path: root.shown(relative), source };
    let mut entries = Vec::new();
    for entry in fs::read_dir(root.real(relative)).map_err(unreadable)? {
        let entry = entry.map_err(unreadable)?;
        let name = entry.file_name();
        let Some(name) = name.to_str().map(str::to_owned) else {
            return Err(SkillError::NameNotUtf8 { path: root.shown(relative).join(entry.file_name()) });
        };
        if name.starts_with('.') {
            continue;
        }
        let path: Vec<String> = relative.iter().cloned().chain([name.clone()]).collect();
        let kind = kind(root, &path)?;
        entries.push((name, kind));
    }
    entries.sort_by(|(a, _), (b, _)| a.cmp(b));
    Ok(entries)
}

/// What entry `relative` is; a link must lead to a file inside the root.
fn kind(root: &Root, relative: &[String]) -> Result<Kind, SkillError> {
    let shown = root.shown(relative);
    let real = root.real(relative);
    let unreadable = |source| SkillError::Unreadable { path: shown.clone(), source };
    let metadata = fs::symlink_metadata(&real).map_err(unreadable)?;
    if metadata.file_type().is_symlink() {
        let target = fs::canonicalize(&real).map_err(unreadable)?;
        if !target.starts_with(&root.real) {
            return Err(SkillError::LinkOutside { path: shown, target, root: root.given.clone() });
        }
        if target.is_dir() {
            return Err(SkillError::LinkedFolder { path: shown });
        }
        if !target.is_file() {
            return Err(SkillError::NotAFile { path: shown });
        }
        return Ok(Kind::File);
    }
    if metadata.is_dir() {
        Ok(Kind::Folder)
    } else if metadata.is_file() {
        Ok(Kind::File)
    } else {
        Err(SkillError::NotAFile { path: shown })
    }
}

/// Whether folder `relative` has a `SKILL.md` (a file, or a link to one).
fn has_skill_file(root: &Root, relative: &[String]) -> Result<bool, SkillError> {
    let path: Vec<String> = relative.iter().cloned().chain([SKILL_FILE.to_owned()]).collect();
    match fs::symlink_metadata(root.real(&path)) {
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(source) => Err(SkillError::Unreadable { path: root.shown(&path), source }),
        Ok(_) => match kind(root, &path)? {
            Kind::File => Ok(true),
            Kind::Folder => Err(SkillError::NotAFile { path: root.shown(&path) }),
        },
    }
}

/// The skills below folder `relative`, which is not a skill: each folder in
/// it is a skill or holds skills; a file in it is out of place (in a folder
/// below the root, the sign of a skill without its SKILL.md).
fn namespace(root: &Root, relative: &[String], skills: &mut Vec<ReadSkill>) -> Result<(), SkillError> {
    for (name, kind) in entries(root, relative)? {
        let path: Vec<String> = relative.iter().cloned().chain([name]).collect();
        match kind {
            // A folder of files is a skill that lacks its SKILL.md.
            Kind::File if !relative.is_empty() => {
                return Err(SkillError::MissingSkillFile { path: root.shown(relative) });
            }
            Kind::File => return Err(SkillError::OutsideSkill { path: root.shown(&path) }),
            Kind::Folder if has_skill_file(root, &path)? => skills.push(read_skill(root, &path, path.clone())?),
            Kind::Folder => {
                let before = skills.len();
                namespace(root, &path, skills)?;
                if skills.len() == before {
                    return Err(SkillError::MissingSkillFile { path: root.shown(&path) });
                }
            }
        }
    }
    Ok(())
}

/// Skill folder `relative`, whose skill path is `segments`: every file below
/// it, and the frontmatter of it and of each skill nested in it.
fn read_skill(root: &Root, relative: &[String], segments: Vec<String>) -> Result<ReadSkill, SkillError> {
    let mut skill = ReadSkill { segments, files: Vec::new(), folders: Vec::new(), skills: Vec::new() };
    let mut total = 0;
    collect(root, relative, &[], &mut skill, &mut total)?;
    if skill.files.len() > MAX_FILES {
        return Err(SkillError::TooManyFiles {
            path: root.shown(relative),
            count: skill.files.len(),
            limit: MAX_FILES,
        });
    }
    let mut nested: Vec<Vec<String>> = skill
        .files
        .iter()
        .filter(|file| file.segments.last().map(String::as_str) == Some(SKILL_FILE))
        .map(|file| file.segments[..file.segments.len() - 1].to_vec())
        .collect();
    nested.sort_by_key(Vec::len);
    for inner in nested {
        let file = skill.files.iter().find(|file| file.segments.split_last().is_some_and(|(_, dir)| dir == inner));
        let Some(file) = file else { continue };
        let shown = root.shown(&[relative, &file.segments].concat());
        let text = std::str::from_utf8(&file.bytes)
            .map_err(|_| SkillError::Frontmatter { path: shown.clone(), reason: "SKILL.md is not UTF-8".to_owned() })?;
        let frontmatter =
            frontmatter::parse(text).map_err(|reason| SkillError::Frontmatter { path: shown.clone(), reason })?;
        let folder = inner.last().or(skill.segments.last()).cloned().unwrap_or_default();
        let name = frontmatter.get("name").and_then(serde_json::Value::as_str).unwrap_or_default();
        if name != folder {
            return Err(SkillError::NameMismatch { path: shown, name: name.to_owned(), folder });
        }
        skill.skills.push((inner, frontmatter));
    }
    Ok(skill)
}

/// Adds every file and folder below folder `relative` of the root (`below`
/// inside the skill) to `skill`, counting their bytes in `total`.
fn collect(
    root: &Root,
    relative: &[String],
    below: &[String],
    skill: &mut ReadSkill,
    total: &mut u64,
) -> Result<(), SkillError> {
    let folder: Vec<String> = [relative, below].concat();
    for (name, kind) in entries(root, &folder)? {
        let inside: Vec<String> = below.iter().cloned().chain([name]).collect();
        match kind {
            Kind::Folder => {
                skill.folders.push(inside.clone());
                collect(root, relative, &inside, skill, total)?;
            }
            Kind::File => {
                let path: Vec<String> = [relative, &inside].concat();
                let unreadable = |source| SkillError::Unreadable { path: root.shown(&path), source };
                let too_large = || SkillError::TooLarge { path: root.shown(relative), limit: MAX_BYTES };
                // The length first, so that a huge file is refused unread.
                let length = fs::metadata(root.real(&path)).map_err(unreadable)?.len();
                if total.saturating_add(length) > MAX_BYTES {
                    return Err(too_large());
                }
                let bytes = fs::read(root.real(&path)).map_err(unreadable)?;
                *total += bytes.len() as u64;
                if *total > MAX_BYTES {
                    return Err(too_large());
                }
                skill.files.push(ReadFile { segments: inside, bytes });
                if skill.files.len() > MAX_FILES {
                    let count = skill.files.len();
                    return Err(SkillError::TooManyFiles { path: root.shown(relative), count, limit: MAX_FILES });
                }
            }
        }
    }
    Ok(())
}
