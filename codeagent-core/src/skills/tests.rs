//! Reading directories of skills: what is served, and each malformed folder's error.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::json;

use super::{SkillError, Skills};
use crate::mcp::ProtocolVersion;

/// A directory of its own under the system's temporary one, removed on drop.
struct Scratch(PathBuf);

impl Scratch {
    fn new() -> Scratch {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("codeagent-skills-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    /// Writes `text` at `relative`, making its folders.
    fn write(&self, relative: &str, text: &str) -> &Scratch {
        let path = self.0.join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
        self
    }

    fn skill(&self, folder: &str, name: &str) -> &Scratch {
        self.write(
            &format!("{folder}/SKILL.md"),
            &format!("---\nname: {name}\ndescription: Does {name}\n---\n# {name}\n"),
        )
    }

    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn every_skill_folder_is_served_with_its_files_digests_and_sizes() {
    let dir = Scratch::new();
    dir.write(
        "pdf-processing/SKILL.md",
        "---\nname: pdf-processing\ndescription: Fill PDF forms\nlicense: MIT\nmetadata:\n  version: \"2\"\n---\nRead references/FORMS.md.\n",
    )
    .write("pdf-processing/references/FORMS.md", "# Forms\n")
    .write("pdf-processing/scripts/fill.py", "print('fill')\n")
    .write("pdf-processing/.DS_Store", "hidden")
    .skill("acme/billing/refunds", "refunds");
    let skills = Skills::from_dir(dir.path()).unwrap();
    let uris: Vec<&str> = skills.iter().map(|skill| skill.uri()).collect();
    assert_eq!(uris, ["skill://acme/billing/refunds/SKILL.md", "skill://pdf-processing/SKILL.md"]);

    let pdf = skills.get("skill://pdf-processing/SKILL.md").unwrap();
    assert_eq!(pdf.name(), "pdf-processing");
    assert_eq!(pdf.path(), "pdf-processing");
    let entry = pdf.entry();
    assert_eq!(
        entry["frontmatter"],
        json!({"name": "pdf-processing", "description": "Fill PDF forms", "license": "MIT", "metadata": {"version": "2"}})
    );
    let files: Vec<&str> =
        entry["resources"].as_array().unwrap().iter().map(|file| file["uri"].as_str().unwrap()).collect();
    assert_eq!(
        files,
        [
            "skill://pdf-processing/SKILL.md",
            "skill://pdf-processing/references/FORMS.md",
            "skill://pdf-processing/scripts/fill.py"
        ]
    );
    let forms = &entry["resources"][1];
    // sha256 of "# Forms\n".
    let expected = format!("sha256:{}", hex(&hmac_sha256::Hash::hash(b"# Forms\n")));
    assert_eq!(forms["digest"], expected);
    assert_eq!(forms["size"], 8);
    assert_eq!(skills.file("skill://pdf-processing/scripts/fill.py").unwrap().mime_type(), "text/x-python");
    assert!(skills.file("skill://pdf-processing/.DS_Store").is_none(), "hidden files are skipped");
    let refunds = skills.get("skill://acme/billing/refunds/SKILL.md").unwrap();
    assert_eq!((refunds.name(), refunds.path()), ("refunds", "acme/billing/refunds"));
}

fn hex(bytes: &[u8]) -> String {
    crate::lower_hex::lower_hex(bytes)
}

#[test]
fn folders_are_directory_resources_listing_their_children() {
    let dir = Scratch::new();
    dir.skill("pdf", "pdf").write("pdf/templates/invoice.md", "i").write("pdf/templates/regional/eu.md", "e");
    std::fs::create_dir_all(dir.path().join("pdf/empty")).unwrap();
    let skills = Skills::from_dir(dir.path()).unwrap();
    let root = skills.children("skill://pdf", ProtocolVersion::LATEST).unwrap();
    let names: Vec<(&str, &str)> =
        root.iter().map(|child| (child["uri"].as_str().unwrap(), child["mimeType"].as_str().unwrap())).collect();
    assert_eq!(
        names,
        [
            ("skill://pdf/SKILL.md", "text/markdown"),
            ("skill://pdf/empty", "inode/directory"),
            ("skill://pdf/templates", "inode/directory")
        ]
    );
    assert_eq!(root[0]["name"], "pdf");
    assert_eq!(root[0]["description"], "Does pdf");
    let templates = skills.children("skill://pdf/templates", ProtocolVersion::LATEST).unwrap();
    assert_eq!(templates.len(), 2);
    assert_eq!(skills.children("skill://pdf/empty", ProtocolVersion::LATEST).unwrap(), Vec::<serde_json::Value>::new());
    assert!(skills.children("skill://pdf/SKILL.md", ProtocolVersion::LATEST).is_none());
    assert!(skills.children("skill://pdf/../etc", ProtocolVersion::LATEST).is_none());
}

#[test]
fn a_nested_skill_is_published_too_and_its_files_are_its_parents() {
    let dir = Scratch::new();
    dir.skill("outer", "outer").skill("outer/inner", "inner").write("outer/inner/notes.txt", "n");
    let skills = Skills::from_dir(dir.path()).unwrap();
    let outer = skills.get("skill://outer/SKILL.md").unwrap();
    let inner = skills.get("skill://outer/inner/SKILL.md").unwrap();
    assert_eq!(outer.files().len(), 3);
    assert_eq!(inner.files().len(), 2);
    assert_eq!(inner.files()[0].uri(), "skill://outer/inner/SKILL.md");
}

#[test]
fn a_folder_with_a_skill_md_is_one_skill_named_after_it() {
    let dir = Scratch::new();
    dir.skill("git-workflow", "git-workflow");
    let skills = Skills::from_dir(dir.path().join("git-workflow")).unwrap();
    assert_eq!(skills.iter().map(|skill| skill.uri()).collect::<Vec<_>>(), ["skill://git-workflow/SKILL.md"]);
}

#[test]
fn names_outside_uri_characters_are_percent_encoded() {
    let dir = Scratch::new();
    dir.skill("pdf", "pdf").write("pdf/my notes#1.md", "x");
    let skills = Skills::from_dir(dir.path()).unwrap();
    assert!(skills.file("skill://pdf/my%20notes%231.md").is_some());
}

/// The error of reading `dir`, shown.
fn error_of(dir: &Scratch) -> (SkillError, String) {
    let error = Skills::from_dir(dir.path()).unwrap_err();
    let text = error.to_string();
    (error, text)
}

#[test]
fn a_folder_without_skill_md_is_named() {
    let dir = Scratch::new();
    dir.skill("good", "good").write("bad/README.md", "no skill here");
    let (error, text) = error_of(&dir);
    assert!(matches!(error, SkillError::MissingSkillFile { .. }), "{text}");
    assert!(text.contains("bad") && text.contains("has no SKILL.md"), "{text}");
}

#[test]
fn a_file_outside_every_skill_is_named() {
    let dir = Scratch::new();
    dir.skill("good", "good").write("notes.txt", "loose");
    let (error, text) = error_of(&dir);
    assert!(matches!(error, SkillError::OutsideSkill { .. }), "{text}");
    assert!(text.contains("notes.txt"), "{text}");
}

#[test]
fn bad_frontmatter_names_the_skill_md_and_the_reason() {
    let dir = Scratch::new();
    dir.write("pdf/SKILL.md", "# no frontmatter\n");
    let (error, text) = error_of(&dir);
    assert!(matches!(error, SkillError::Frontmatter { .. }), "{text}");
    assert!(text.contains("SKILL.md") && text.contains("must begin with YAML frontmatter"), "{text}");

    let dir = Scratch::new();
    dir.write("pdf/SKILL.md", "---\nname: pdf\n---\n");
    assert!(error_of(&dir).1.contains("has no `description`"));
}

#[test]
fn a_name_that_is_not_the_folders_is_named() {
    let dir = Scratch::new();
    dir.skill("pdf-processing", "pdf");
    let (error, text) = error_of(&dir);
    assert!(matches!(error, SkillError::NameMismatch { .. }), "{text}");
    assert!(text.contains("`pdf`") && text.contains("`pdf-processing`"), "{text}");

    let dir = Scratch::new();
    dir.skill("outer", "outer").skill("outer/inner", "other");
    assert!(matches!(error_of(&dir).0, SkillError::NameMismatch { .. }));
}

#[test]
fn a_folder_name_breaking_the_naming_rules_is_refused() {
    let dir = Scratch::new();
    dir.skill("PDF", "PDF");
    let (error, text) = error_of(&dir);
    assert!(matches!(error, SkillError::Frontmatter { .. }), "{text}");
    assert!(text.contains("naming rules"), "{text}");
}

#[cfg(unix)]
#[test]
fn a_link_out_of_the_directory_is_refused_and_one_inside_followed() {
    let outside = Scratch::new();
    outside.write("secret.txt", "secret");
    let dir = Scratch::new();
    dir.skill("pdf", "pdf").write("shared/SKILL.md", "---\nname: shared\ndescription: d\n---\n");
    std::os::unix::fs::symlink(dir.path().join("shared/SKILL.md"), dir.path().join("pdf/shared.md")).unwrap();
    let skills = Skills::from_dir(dir.path()).unwrap();
    assert!(skills.file("skill://pdf/shared.md").is_some(), "a link to a file inside is followed");

    std::os::unix::fs::symlink(outside.path().join("secret.txt"), dir.path().join("pdf/secret.txt")).unwrap();
    let (error, text) = error_of(&dir);
    assert!(matches!(error, SkillError::LinkOutside { .. }), "{text}");
    assert!(text.contains("secret.txt") && text.contains("outside the skills directory"), "{text}");

    let dir = Scratch::new();
    dir.skill("pdf", "pdf");
    std::os::unix::fs::symlink(dir.path().join("pdf"), dir.path().join("pdf/loop")).unwrap();
    let (error, text) = error_of(&dir);
    assert!(matches!(error, SkillError::LinkedFolder { .. }), "{text}");
}

#[test]
fn an_empty_directory_or_a_missing_one_is_an_error() {
    let dir = Scratch::new();
    assert!(matches!(error_of(&dir).0, SkillError::NoSkills { .. }));
    let missing = dir.path().join("nowhere");
    let error = Skills::from_dir(&missing).unwrap_err();
    assert!(matches!(error, SkillError::Unreadable { .. }));
    assert!(error.to_string().contains("nowhere"), "{error}");
    dir.write("file.txt", "x");
    assert!(matches!(Skills::from_dir(dir.path().join("file.txt")).unwrap_err(), SkillError::NotAFolder { .. }));
}

#[test]
fn a_skill_over_the_limits_is_refused() {
    let dir = Scratch::new();
    dir.skill("big", "big");
    for n in 0..super::MAX_FILES {
        dir.write(&format!("big/files/{n}.txt"), "x");
    }
    let (error, text) = error_of(&dir);
    assert!(matches!(error, SkillError::TooManyFiles { .. }), "{text}");
    assert!(text.contains("at most 512"), "{text}");

    let dir = Scratch::new();
    dir.skill("huge", "huge");
    let file = std::fs::File::create(dir.path().join("huge/blob.bin")).unwrap();
    file.set_len(super::MAX_BYTES).unwrap();
    let (error, text) = error_of(&dir);
    assert!(matches!(error, SkillError::TooLarge { .. }), "{text}");
}
