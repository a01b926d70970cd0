//! The compile job: unpack the upload, build it in the sandbox, store the artifact, play the
//! validation game, and leave the submission `ready` or `failed` with a log for the team.
//!
//! A compile error, a missing or ambiguous entry point (for a Hanabi class bot: which class
//! plays, [`croupier_referee::hanabi::check_entry`]), a build over its limits or a lost validation game
//! are the team's: the submission fails at once (no retry). A sandbox that cannot start, an
//! I/O error on the worker or a referee error are the platform's: the job is retried.
//!
//! The build runs in a private seat dir ([`croupier_sandbox::SeatDir`]) holding a copy of the
//! unpacked upload at `/work` (its cwd): everything the compiler writes is capped by the build
//! limits' `disk_bytes` and never reaches the worker's disk; the artifact is packed from it and it
//! is unmounted when the job ends.

mod toolchain;

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use croupier_bundle::BundleError;
use croupier_games::GameId;
use croupier_sandbox::{EndState, Spec};
use croupier_store::builds::{self, Fence, Verdict};
use croupier_store::jobs::{self, Claimed};
use croupier_store::{blobs, submissions, StoreError};

use crate::artifact::{self, is_plain_file, open_dir, tail, PackError};
use crate::worker::{Done, Outcome, Worker};

/// A job's scratch directory, removed when the job ends (whatever way).
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

fn prepare(dir: &Path) -> std::io::Result<()> {
    let _ = fs::remove_dir_all(dir);
    open_dir(&dir.join("work"))?;
    open_dir(&dir.join("tools"))
}

pub(crate) async fn run(w: &Worker, job: &Claimed) -> Result<Done, StoreError> {
    let Some(submission_id) = job.submission_id else {
        return Ok(Done::Platform("compile job without a submission".into()));
    };
    let fence = Fence {
        job_id: job.job_id,
        attempt: job.attempt,
    };
    let sub = submissions::get(&w.pool, submission_id).await?;
    let source = submissions::source(&w.pool, submission_id).await?;
    let scratch = Scratch(
        w.cfg
            .scratch_dir
            .join("builds")
            .join(format!("{}-{}", job.job_id, job.attempt)),
    );
    if let Err(e) = prepare(&scratch.0) {
        return Ok(Done::Platform(format!(
            "preparing the build directory: {e}"
        )));
    }
    let (work, tools) = (scratch.0.join("work"), scratch.0.join("tools"));

    let (filename, dest) = (sub.filename.clone(), work.clone());
    let extracted = tokio::task::spawn_blocking(move || {
        croupier_bundle::extract(
            &filename,
            &source,
            &croupier_bundle::Limits::default(),
            &dest,
        )
    })
    .await;
    let manifest = match extracted {
        Ok(Ok(m)) => m,
        Ok(Err(e @ BundleError::Io { .. })) => {
            return Ok(Done::Platform(format!("unpacking the upload: {e}")))
        }
        Ok(Err(e)) => {
            return finish(
                w,
                job,
                fence,
                failed(format!("the upload could not be unpacked: {e}")),
                "",
            )
            .await
        }
        Err(e) => return Ok(Done::Platform(format!("unpacking the upload: {e}"))),
    };
    let files: Vec<String> = manifest.entries.into_iter().map(|e| e.path).collect();
    let plan = match toolchain::plan(sub.language, &files, &sub.entry) {
        Ok(plan) => plan,
        Err(msg) => return finish(w, job, fence, failed(msg.clone()), &msg).await,
    };
    let game = match sub.game.parse::<GameId>() {
        Ok(game) => game,
        Err(e) => return finish(w, job, fence, failed(e.to_string()), &e.to_string()).await,
    };
    if let Err(msg) = croupier_referee::check_entry(game, &work, &plan.run_command) {
        return finish(w, job, fence, failed(msg.clone()), &msg).await;
    }

    let mut log = String::new();
    // Without a build step the upload itself is the artifact.
    let mut built = work.clone();
    let mut _build_dir = None;
    if let Some((program, args)) = plan.build {
        log = format!(
            "$ {} {}\n",
            program.rsplit('/').next().unwrap_or(&program),
            args.join(" ")
        );
        let mut spec = Spec::new(program, &tools);
        spec.args = args;
        let dir = match w.sandbox.seat_dir(&work, "/work", &w.cfg.build).await {
            Ok(dir) => dir,
            Err(e) => return Ok(Done::Platform(format!("build sandbox: {e}"))),
        };
        built = dir.path();
        spec.seat_dir = Some(dir.clone());
        _build_dir = Some(dir);
        spec.cwd = "/work".into();
        spec.env = vec![
            ("HOME".into(), "/work".into()),
            ("LANG".into(), "C.UTF-8".into()),
        ];
        spec.limits = w.cfg.build.clone();
        let report = w.sandbox.run(spec, Vec::new()).await;
        log.push_str(&String::from_utf8_lossy(&report.stdout));
        log.push_str(&String::from_utf8_lossy(&report.stderr));
        log = tail(&log, w.cfg.log_bytes).to_owned();
        let limits = &w.cfg.build;
        let reason = match report.end_state {
            EndState::Ok => None,
            EndState::SetupError(m) => return Ok(Done::Platform(format!("build sandbox: {m}"))),
            EndState::TimeLimit => Some(format!(
                "compilation took longer than {} s",
                limits.wall.as_secs()
            )),
            EndState::MemoryLimit => Some(format!(
                "the compiler ran out of memory ({} MiB)",
                limits.memory_bytes >> 20
            )),
            EndState::OutputLimit => Some("the compiler wrote too much output".to_owned()),
            EndState::Crashed { .. } | EndState::InvalidOutput | EndState::IllegalAction => {
                Some("compilation failed".to_owned())
            }
        };
        if let Some(reason) = reason {
            return finish(w, job, fence, failed(reason), &log).await;
        }
    }
    if let Some(file) = &plan.executable {
        let path = built.join(file);
        if !is_plain_file(&path) {
            return finish(
                w,
                job,
                fence,
                failed(format!("{file} is not a regular file")),
                &log,
            )
            .await;
        }
        if let Err(e) = fs::set_permissions(&path, fs::Permissions::from_mode(0o755)) {
            return Ok(Done::Platform(format!("making {file} executable: {e}")));
        }
    }

    let cap = w.cfg.artifact_bytes;
    let packed = tokio::task::spawn_blocking(move || artifact::pack(&built, cap)).await;
    let bytes = match packed {
        Ok(Ok(bytes)) => bytes,
        Ok(Err(e @ PackError::TooLarge { .. })) => {
            return finish(w, job, fence, failed(e.to_string()), &log).await
        }
        Ok(Err(PackError::Io(e))) => return Ok(Done::Platform(format!("packing the build: {e}"))),
        Err(e) => return Ok(Done::Platform(format!("packing the build: {e}"))),
    };
    if !builds::mark_validating(&w.pool, fence, &bytes, &plan.run_command, &log).await? {
        return Ok(Done::LeaseLost);
    }
    let bot_dir = match w.cache.dir(&w.pool, &blobs::digest(&bytes)).await {
        Ok(dir) => dir,
        Err(e) => return Ok(Done::Platform(e)),
    };
    match crate::validate::run(w, &sub, &bot_dir, &plan.run_command).await {
        Err(platform) => Ok(Done::Platform(platform)),
        Ok((verdict, note)) => {
            log.push_str(&note);
            let log = tail(&log, w.cfg.log_bytes).to_owned();
            finish(w, job, fence, verdict, &log).await
        }
    }
}

fn failed(reason: String) -> Verdict {
    Verdict::Failed(reason)
}

/// Writes the verdict and completes the job in one fenced transaction.
async fn finish(
    w: &Worker,
    job: &Claimed,
    fence: Fence,
    verdict: Verdict,
    log: &str,
) -> Result<Done, StoreError> {
    let mut tx = w.pool.begin().await?;
    if !builds::finish(&mut tx, fence, &verdict, log).await?
        || !jobs::complete(&mut tx, job.job_id, job.attempt).await?
    {
        tx.rollback().await?;
        return Ok(Done::LeaseLost);
    }
    tx.commit().await?;
    if let Verdict::Failed(reason) = &verdict {
        tracing::info!(%reason, "submission failed");
    }
    Ok(Done::Completed(match verdict {
        Verdict::Ready(_) => Outcome::Ready,
        Verdict::Failed(_) => Outcome::Failed,
    }))
}
