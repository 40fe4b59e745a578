//! Functions from Git repositories (Kyma's `gitRepository` source): the
//! build fetches one commit of one, the controller resolves references
//! and polls them. This crate only talks Git; it knows nothing of building,
//! Kubernetes objects or where credentials are kept.
//!
//! Git is spoken by the `git` command (Debian's package, in the builder and
//! controller images): it handles smart HTTP and SSH with every
//! authentication method and shallow fetches of one commit, and costs the
//! build nothing to compile, where a library would bring its own protocol
//! stack and still run `ssh` for SSH remotes.
//!
//! Credentials never appear on a command line, in a URL or in a message: a
//! basic-auth header reaches git through `GIT_CONFIG_*` environment
//! variables, an SSH key through a file only this process can read (its
//! passphrase through an askpass helper reading the environment), and every
//! message is cleared of URL user-info before it is returned.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use base64::Engine;
use tokio::process::Command;

/// The reference of a Git source that names none (Kyma's default).
pub const DEFAULT_REFERENCE: &str = "main";

/// How long one git command may take.
const GIT_TIMEOUT: Duration = Duration::from_secs(120);

/// Credentials for a repository, from the Secret a Function names
/// (`spec.source.gitRepository.auth`).
#[derive(Clone, Default)]
pub enum GitAuth {
    /// A public repository.
    #[default]
    None,
    /// `auth.type: basic`: `username` and `password` (or a token).
    Basic {
        /// The user.
        username: String,
        /// The password or token.
        password: String,
    },
    /// `auth.type: key`: an SSH private key, optionally encrypted.
    Key {
        /// The key (OpenSSH or PEM).
        key: String,
        /// The key's passphrase.
        passphrase: Option<String>,
    },
}

impl std::fmt::Debug for GitAuth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the values.
        f.write_str(match self {
            GitAuth::None => "GitAuth::None",
            GitAuth::Basic { .. } => "GitAuth::Basic",
            GitAuth::Key { .. } => "GitAuth::Key",
        })
    }
}

impl GitAuth {
    /// Credentials from a Secret's keys (`username`, `password`, `key`,
    /// and `password` as the key's passphrase), for `auth.type`.
    ///
    /// # Errors
    /// When a key the type needs is missing.
    pub fn from_secret(kind: &str, data: &std::collections::BTreeMap<String, Vec<u8>>) -> Result<Self, GitError> {
        let text = |key: &str| data.get(key).map(|v| String::from_utf8_lossy(v).into_owned());
        let missing =
            |key: &str| GitError::AuthFailed(format!("the auth Secret has no {key:?} key (auth.type {kind})"));
        match kind {
            "basic" => Ok(GitAuth::Basic {
                username: text("username").ok_or_else(|| missing("username"))?,
                password: text("password").ok_or_else(|| missing("password"))?,
            }),
            "key" => Ok(GitAuth::Key {
                key: text("key").ok_or_else(|| missing("key"))?,
                passphrase: text("password").filter(|p| !p.is_empty()),
            }),
            other => Err(GitError::AuthFailed(format!("auth.type {other:?} is not basic or key"))),
        }
    }
}

/// Why a Git source could not be had; each is a `SourceUpdateFailed`
/// message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GitError {
    /// The remote cannot be reached (or has no such repository).
    #[error("the repository is unreachable: {0}")]
    Unreachable(String),
    /// The remote refused the credentials.
    #[error("authentication failed: {0}")]
    AuthFailed(String),
    /// No branch, tag or commit of that name.
    #[error("reference {reference:?} not found in {url}")]
    ReferenceNotFound {
        /// The reference asked for.
        reference: String,
        /// The repository (user-info removed).
        url: String,
    },
    /// The commit has no such folder.
    #[error("baseDir {base_dir:?} does not exist in commit {commit}")]
    BaseDirMissing {
        /// The folder.
        base_dir: String,
        /// The commit.
        commit: String,
    },
    /// The folder has no handler.js.
    #[error("{base_dir:?} in commit {commit} has no handler.js")]
    NoHandler {
        /// The folder.
        base_dir: String,
        /// The commit.
        commit: String,
    },
    /// Running git failed.
    #[error("running git: {0}")]
    Git(String),
}

/// A checkout of one commit.
#[derive(Debug)]
pub struct Checkout {
    /// The commit checked out.
    pub commit: String,
    /// The Function's folder in it (`baseDir`).
    pub dir: PathBuf,
}

/// Runs git for one repository with its credentials.
pub struct GitRemote {
    url: String,
    auth: GitAuth,
    program: PathBuf,
}

impl GitRemote {
    /// `url` with `auth`, using `git` from PATH.
    pub fn new(url: impl Into<String>, auth: GitAuth) -> Self {
        Self {
            url: url.into(),
            auth,
            program: PathBuf::from("git"),
        }
    }

    /// The commit `reference` names: a branch, a tag (peeled to its commit)
    /// or a commit (full or abbreviated hex) — one ref listing, no clone.
    ///
    /// # Errors
    /// Unreachable, authentication failed, or no such reference.
    pub async fn resolve(&self, reference: &str) -> Result<String, GitError> {
        let work = tempfile::tempdir().map_err(|e| GitError::Git(e.to_string()))?;
        let listing = self.git(work.path(), &["ls-remote", "--", &self.url]).await?;
        let refs: Vec<(&str, &str)> = listing.lines().filter_map(|l| l.split_once('\t')).collect();
        let find = |name: &str| refs.iter().find(|(_, r)| *r == name).map(|(c, _)| c.to_string());
        if let Some(commit) = find(&format!("refs/tags/{reference}^{{}}"))
            .or_else(|| find(&format!("refs/heads/{reference}")))
            .or_else(|| find(&format!("refs/tags/{reference}")))
            .or_else(|| (reference == "HEAD").then(|| find("HEAD")).flatten())
        {
            return Ok(commit);
        }
        let hex = reference.len() >= 7 && reference.len() <= 40 && reference.chars().all(|c| c.is_ascii_hexdigit());
        if hex {
            let lower = reference.to_ascii_lowercase();
            if let Some((commit, _)) = refs.iter().find(|(c, _)| c.starts_with(&lower)) {
                return Ok(commit.to_string());
            }
            if lower.len() == 40 {
                // A commit no ref points at: the fetch checks it exists.
                return Ok(lower);
            }
        }
        Err(GitError::ReferenceNotFound {
            reference: reference.to_string(),
            url: scrub(&self.url),
        })
    }

    /// Fetches exactly `commit` (shallow) into `into` and returns its
    /// `base_dir` folder, checked to hold a `handler.js`.
    ///
    /// # Errors
    /// Unreachable, authentication failed, no such commit, no such folder,
    /// or no handler.js in it.
    pub async fn checkout(&self, commit: &str, base_dir: &str, into: &Path) -> Result<Checkout, GitError> {
        std::fs::create_dir_all(into).map_err(|e| GitError::Git(e.to_string()))?;
        self.git(into, &["init", "--quiet", "."]).await?;
        let shallow = self
            .git(into, &["fetch", "--quiet", "--depth", "1", "--", &self.url, commit])
            .await;
        let fetched_by_id = shallow.is_ok();
        if let Err(e) = shallow {
            // A server that allows no fetch by commit id: the whole history,
            // then the commit from it.
            if matches!(e, GitError::AuthFailed(_) | GitError::Unreachable(_)) {
                return Err(e);
            }
            self.git(
                into,
                &[
                    "fetch",
                    "--quiet",
                    "--",
                    &self.url,
                    "+refs/heads/*:refs/remotes/origin/*",
                    "+refs/tags/*:refs/tags/*",
                ],
            )
            .await?;
        }
        let target = if fetched_by_id { "FETCH_HEAD" } else { commit };
        if self
            .git(into, &["checkout", "--quiet", "--detach", target])
            .await
            .is_err()
        {
            return Err(GitError::ReferenceNotFound {
                reference: commit.to_string(),
                url: scrub(&self.url),
            });
        }
        let checked_out = self.git(into, &["rev-parse", "HEAD"]).await?.trim().to_string();
        let relative = base_dir.trim_matches('/');
        let safe = Path::new(relative)
            .components()
            .all(|c| matches!(c, std::path::Component::Normal(_) | std::path::Component::CurDir));
        let dir = into.join(relative);
        if !safe || !dir.is_dir() {
            return Err(GitError::BaseDirMissing {
                base_dir: base_dir.to_string(),
                commit: checked_out,
            });
        }
        if !dir.join("handler.js").is_file() {
            return Err(GitError::NoHandler {
                base_dir: base_dir.to_string(),
                commit: checked_out,
            });
        }
        Ok(Checkout {
            commit: checked_out,
            dir,
        })
    }

    /// Runs one git command in `cwd`; its stdout.
    async fn git(&self, cwd: &Path, args: &[&str]) -> Result<String, GitError> {
        let mut command = Command::new(&self.program);
        command
            .args(args)
            .current_dir(cwd)
            .env("GIT_TERMINAL_PROMPT", "0")
            .env("GIT_ASKPASS", "/bin/false")
            // Only the credentials given here: no user or system config.
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("HOME", cwd)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        let _key_files = self.authenticate(&mut command)?;
        let output = tokio::time::timeout(GIT_TIMEOUT, command.output())
            .await
            .map_err(|_| {
                GitError::Unreachable(format!(
                    "git {} did not finish within {} s",
                    args[0],
                    GIT_TIMEOUT.as_secs()
                ))
            })?
            .map_err(|e| GitError::Git(format!("cannot run git: {e}")))?;
        if output.status.success() {
            return Ok(String::from_utf8_lossy(&output.stdout).into_owned());
        }
        let stderr = scrub(String::from_utf8_lossy(&output.stderr).trim());
        Err(classify(&stderr))
    }

    /// Hands the credentials to git; returns what must live as long as the
    /// command (the key files).
    fn authenticate(&self, command: &mut Command) -> Result<Option<tempfile::TempDir>, GitError> {
        match &self.auth {
            GitAuth::None => {
                command.env("GIT_SSH_COMMAND", ssh_command(None));
                Ok(None)
            }
            GitAuth::Basic { username, password } => {
                let token = base64::engine::general_purpose::STANDARD.encode(format!("{username}:{password}"));
                command
                    .env("GIT_CONFIG_COUNT", "1")
                    .env("GIT_CONFIG_KEY_0", "http.extraHeader")
                    .env("GIT_CONFIG_VALUE_0", format!("Authorization: Basic {token}"));
                Ok(None)
            }
            GitAuth::Key { key, passphrase } => {
                use std::os::unix::fs::PermissionsExt;
                let dir = tempfile::tempdir().map_err(|e| GitError::Git(e.to_string()))?;
                let key_path = dir.path().join("key");
                let mut text = key.replace("\r\n", "\n");
                if !text.ends_with('\n') {
                    text.push('\n');
                }
                std::fs::write(&key_path, text).map_err(|e| GitError::Git(e.to_string()))?;
                std::fs::set_permissions(&key_path, std::fs::Permissions::from_mode(0o600))
                    .map_err(|e| GitError::Git(e.to_string()))?;
                command.env("GIT_SSH_COMMAND", ssh_command(Some(&key_path)));
                if let Some(passphrase) = passphrase {
                    // ssh asks for the passphrase through SSH_ASKPASS; the
                    // helper prints it from the environment, so it is on no
                    // command line and in no file.
                    let askpass = dir.path().join("askpass");
                    std::fs::write(&askpass, "#!/bin/sh\nprintf '%s\\n' \"$SHOAL_GIT_KEY_PASSPHRASE\"\n")
                        .map_err(|e| GitError::Git(e.to_string()))?;
                    std::fs::set_permissions(&askpass, std::fs::Permissions::from_mode(0o700))
                        .map_err(|e| GitError::Git(e.to_string()))?;
                    command
                        .env("SSH_ASKPASS", &askpass)
                        .env("SSH_ASKPASS_REQUIRE", "force")
                        .env("DISPLAY", ":0")
                        .env("SHOAL_GIT_KEY_PASSPHRASE", passphrase);
                }
                Ok(Some(dir))
            }
        }
    }
}

/// ssh for git: the given key only, no prompts but the passphrase's, and
/// the host key accepted as presented (as Kyma does: a Function's Secret
/// carries no known_hosts).
fn ssh_command(key: Option<&Path>) -> String {
    let mut command = String::from(
        "ssh -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -o PasswordAuthentication=no -o KbdInteractiveAuthentication=no -o ConnectTimeout=20",
    );
    if let Some(key) = key {
        command.push_str(&format!(" -o IdentitiesOnly=yes -i '{}'", key.display()));
    }
    command
}

/// What git's message means for the Function.
fn classify(stderr: &str) -> GitError {
    let lower = stderr.to_ascii_lowercase();
    let first = stderr
        .lines()
        .map(|l| l.trim_start_matches("fatal: ").trim_start_matches("error: ").trim())
        .find(|l| !l.is_empty())
        .unwrap_or("git failed")
        .to_string();
    if lower.contains("authentication failed")
        || lower.contains("could not read username")
        || lower.contains("could not read password")
        || lower.contains("permission denied (publickey")
        || lower.contains("http 401")
        || lower.contains("error: 401")
        || lower.contains("the requested url returned error: 403")
        || lower.contains("incorrect passphrase")
        || lower.contains("load key")
    {
        GitError::AuthFailed(first)
    } else if lower.contains("could not resolve host")
        || lower.contains("connection refused")
        || lower.contains("failed to connect")
        || lower.contains("timed out")
        || lower.contains("not found")
        || lower.contains("does not appear to be a git repository")
        || lower.contains("could not read from remote repository")
        || lower.contains("unable to access")
    {
        GitError::Unreachable(first)
    } else {
        GitError::Git(first)
    }
}

/// `text` with the user-info of any URL in it removed.
pub fn scrub(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("://") {
        let (head, tail) = rest.split_at(at + 3);
        out.push_str(head);
        let end = tail
            .find(|c: char| c.is_whitespace() || c == '/' || c == '\'' || c == '"')
            .unwrap_or(tail.len());
        match tail[..end].rfind('@') {
            Some(userinfo) => {
                out.push_str("***@");
                out.push_str(&tail[userinfo + 1..end]);
            }
            None => out.push_str(&tail[..end]),
        }
        rest = &tail[end..];
    }
    out.push_str(rest);
    out
}

/// A `shoal build` Git argument: `git+URL#REF:DIR` (REF and DIR optional:
/// `main` and the repository's root).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GitSpec {
    /// The repository.
    pub url: String,
    /// A branch, tag or commit.
    pub reference: String,
    /// The Function's folder.
    pub base_dir: String,
}

impl GitSpec {
    /// Parses `git+URL[#REF[:DIR]]`; None when `arg` is not a Git argument.
    pub fn parse(arg: &str) -> Option<Self> {
        let rest = arg.strip_prefix("git+")?;
        let (url, fragment) = rest.split_once('#').unwrap_or((rest, ""));
        let (reference, base_dir) = fragment.split_once(':').unwrap_or((fragment, ""));
        Some(Self {
            url: url.to_string(),
            reference: if reference.is_empty() {
                DEFAULT_REFERENCE.into()
            } else {
                reference.to_string()
            },
            base_dir: if base_dir.is_empty() {
                "/".into()
            } else {
                base_dir.to_string()
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_info_never_survives_a_message() {
        assert_eq!(
            scrub("fatal: unable to access 'https://bob:s3cret@git.example/x.git/': 403"),
            "fatal: unable to access 'https://***@git.example/x.git/': 403"
        );
        assert_eq!(
            scrub("ssh://git@host:22/repo and http://h/x"),
            "ssh://***@host:22/repo and http://h/x"
        );
    }

    #[test]
    fn git_arguments_parse() {
        assert_eq!(
            GitSpec::parse("git+https://github.com/kyma-project/examples.git#main:orders-service/function"),
            Some(GitSpec {
                url: "https://github.com/kyma-project/examples.git".into(),
                reference: "main".into(),
                base_dir: "orders-service/function".into(),
            })
        );
        assert_eq!(GitSpec::parse("git+ssh://git@h/r.git").unwrap().reference, "main");
        assert_eq!(GitSpec::parse("./handler.js"), None);
    }
}
