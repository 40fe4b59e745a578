//! Git sources in the cluster: which commit each Function's reference names
//! now, polled the way Kyma does (a new commit on a branch is noticed within
//! one polling interval and built once).
//!
//! Polling scales with repositories, not Functions: a reference is resolved
//! with one ref listing (`git ls-remote`, no clone) per repository,
//! reference and credentials per interval, shared by every Function naming
//! them; a new commit is checked once (a shallow fetch) for the Function's
//! `baseDir` and `handler.js`, so a wrong folder is a `SourceUpdateFailed`
//! on the Function rather than a failed build.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use shoal_git::{GitAuth, GitError, GitRemote};

/// A repository, a reference in it, and the Secret whose credentials read
/// it (`namespace/name/type`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RefKey {
    /// The repository URL.
    pub url: String,
    /// The branch, tag or commit.
    pub reference: String,
    /// The credentials' Secret.
    pub secret: Option<(String, String, String)>,
}

struct Resolved {
    at: Instant,
    commit: Result<String, GitError>,
}

/// Resolves references at most once per interval each.
pub struct GitPoller {
    interval: Duration,
    refs: std::sync::Mutex<HashMap<RefKey, Arc<tokio::sync::Mutex<Option<Resolved>>>>>,
    /// Checked (url, commit, baseDir, secret): Ok, or why not.
    checked: std::sync::Mutex<HashMap<(RefKey, String), Result<(), GitError>>>,
    listings: AtomicU64,
}

impl GitPoller {
    /// A poller resolving each reference at most once per `interval`.
    pub fn new(interval: Duration) -> Self {
        Self {
            interval,
            refs: std::sync::Mutex::new(HashMap::new()),
            checked: std::sync::Mutex::new(HashMap::new()),
            listings: AtomicU64::new(0),
        }
    }

    /// The polling interval.
    pub fn interval(&self) -> Duration {
        self.interval
    }

    /// Ref listings made so far.
    pub fn listings(&self) -> u64 {
        self.listings.load(Ordering::Relaxed)
    }

    /// The commit `key.reference` names, as listed at most one interval ago.
    /// Callers asking together wait for one listing. `credentials` is
    /// called only when a listing is due.
    ///
    /// # Errors
    /// The Git error of the last listing (also kept for the interval).
    pub async fn commit<F, Fut>(&self, key: &RefKey, credentials: F) -> Result<String, GitError>
    where
        F: FnOnce() -> Fut,
        Fut: std::future::Future<Output = Result<GitAuth, GitError>>,
    {
        let slot = self
            .refs
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .entry(key.clone())
            .or_default()
            .clone();
        let mut resolved = slot.lock().await;
        if let Some(r) = resolved.as_ref()
            && r.at.elapsed() < self.interval
        {
            return r.commit.clone();
        }
        let commit = match credentials().await {
            Ok(auth) => {
                self.listings.fetch_add(1, Ordering::Relaxed);
                GitRemote::new(&key.url, auth).resolve(&key.reference).await
            }
            Err(e) => Err(e),
        };
        *resolved = Some(Resolved {
            at: Instant::now(),
            commit: commit.clone(),
        });
        commit
    }

    /// Whether `commit` has `base_dir` with a `handler.js`, checked once
    /// per commit and folder.
    ///
    /// # Errors
    /// No such folder, no handler.js, or the fetch failed.
    pub async fn check_folder<F, Fut>(
        &self,
        key: &RefKey,
        commit: &str,
        base_dir: &str,
        credentials: F,
    ) -> Result<(), GitError>
    where
        F: FnOnce() -> Fut,
        Fut: std::future::Future<Output = Result<GitAuth, GitError>>,
    {
        let id = (
            RefKey {
                reference: commit.to_string(),
                ..key.clone()
            },
            base_dir.to_string(),
        );
        if let Some(known) = self.checked.lock().unwrap_or_else(|p| p.into_inner()).get(&id) {
            return known.clone();
        }
        let work = tempfile::tempdir().map_err(|e| GitError::Git(e.to_string()))?;
        let result = match credentials().await {
            Ok(auth) => GitRemote::new(&key.url, auth)
                .checkout(commit, base_dir, work.path())
                .await
                .map(|_| ()),
            Err(e) => Err(e),
        };
        // A network failure is not the commit's: tried again next time.
        if !matches!(result, Err(GitError::Unreachable(_)) | Err(GitError::Git(_))) {
            self.checked
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .insert(id, result.clone());
        }
        result
    }
}
