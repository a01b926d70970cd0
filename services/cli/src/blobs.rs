//! `croupier blobs …`: where the blobs (uploads, builds, replays, logs) are, and moving the
//! ones PostgreSQL holds to the object store named by `--blob-store`.

use anyhow::{bail, Result};
use clap::Subcommand;
use croupier_store::blobs;

use crate::lifecycle::connect_and_migrate;
use crate::settings::DbArgs;

#[derive(Subcommand, Debug)]
pub enum BlobsCommand {
    /// How many blobs (and bytes) PostgreSQL and the object store hold, and the database's size.
    Stats {
        #[command(flatten)]
        db: DbArgs,
    },
    /// Move every blob PostgreSQL holds to the object store named by --blob-store (each is
    /// streamed out slice by slice — a multipart upload for a big one, never whole in memory —
    /// then read back and checked before the database lets go of it; safe to interrupt and run
    /// again, and to run while the platform works).
    Migrate {
        /// Blobs per batch.
        #[arg(long, default_value = "100")]
        batch: i64,
        #[command(flatten)]
        db: DbArgs,
    },
    /// Drop the replays and seat logs of matches finished more than --replay-retention-days
    /// ago in competitions that are over (and ladders), and the blobs nothing else uses;
    /// results, standings and ratings stay (docs/operations.md#data-growth).
    Expire {
        /// Say what would go, change nothing.
        #[arg(long)]
        dry_run: bool,
        /// Keep replays this many days after their match finished.
        #[arg(long, env = "CROUPIER_REPLAY_RETENTION_DAYS")]
        replay_retention_days: Option<String>,
        #[command(flatten)]
        db: DbArgs,
    },
}

pub async fn run(command: BlobsCommand) -> Result<()> {
    match command {
        BlobsCommand::Stats { db } => {
            db.configure_blobs()?;
            let pool = connect_and_migrate(db.require()?, 2).await?;
            print_stats(&pool).await
        }
        BlobsCommand::Migrate { batch, db } => {
            db.configure_blobs()?;
            if matches!(blobs::location(), blobs::Location::Database) {
                bail!(
                    "--blob-store is postgres: name the object store to move the blobs to \
                     (file:///path or s3://bucket[/prefix])"
                );
            }
            let pool = connect_and_migrate(db.require()?, 2).await?;
            let mut moved = 0;
            loop {
                let n = blobs::move_out(&pool, batch.max(1)).await?;
                if n == 0 {
                    break;
                }
                moved += n;
                eprintln!("moved {moved} blobs to {}", blobs::location().describe());
            }
            println!("{moved} blobs moved to {}", blobs::location().describe());
            print_stats(&pool).await
        }
        BlobsCommand::Expire {
            dry_run,
            replay_retention_days,
            db,
        } => {
            let Some(days) = crate::settings::retention_days(replay_retention_days.as_deref())?
            else {
                bail!("say how long replays are kept: --replay-retention-days N (or CROUPIER_REPLAY_RETENTION_DAYS)");
            };
            db.configure_blobs()?;
            let pool = connect_and_migrate(db.require()?, 2).await?;
            let e = croupier_store::retention::expire(&pool, days, dry_run).await?;
            let verb = if dry_run { "would expire" } else { "expired" };
            println!(
                "{verb} the replays and logs of {} matches finished more than {days} days ago: \
                 {} blobs, {} bytes ({} in the object store)",
                e.matches, e.blobs, e.bytes, e.objects
            );
            Ok(())
        }
    }
}

async fn print_stats(pool: &croupier_store::PgPool) -> Result<()> {
    let s = blobs::stats(pool).await?;
    let database: i64 = sqlx::query_scalar("select pg_database_size(current_database())")
        .fetch_one(pool)
        .await?;
    // Compressed sizes are not in the rows: estimated from a sample of objects (one HEAD each).
    let (packed, raw) = if s.in_gzip_objects > 0 {
        blobs::gzip_sample(pool, 100).await?
    } else {
        (0, 0)
    };
    let compressed = if raw > 0 {
        format!(
            ", about {} bytes compressed ({:.1}× smaller, from {} of them)",
            (s.gzip_object_raw_bytes as f64 * packed as f64 / raw as f64).round() as i64,
            raw as f64 / packed.max(1) as f64,
            s.in_gzip_objects.min(100)
        )
    } else {
        String::new()
    };
    println!(
        "in PostgreSQL: {} blobs, {} bytes\nin the object store: {} blobs, {} bytes\n  \
         gzip-compressed: {} blobs, {} bytes raw{compressed}\n  \
         raw (written before compression): {} blobs, {} bytes\n\
         new blobs go to: {}\ndatabase size: {} bytes",
        s.in_database,
        s.database_bytes,
        s.in_objects + s.in_gzip_objects,
        s.object_bytes + s.gzip_object_raw_bytes,
        s.in_gzip_objects,
        s.gzip_object_raw_bytes,
        s.in_objects,
        s.object_bytes,
        blobs::location().describe(),
        database
    );
    Ok(())
}
