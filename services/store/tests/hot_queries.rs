//! The hot queries keep their indexes: each query of scripts/bench/seed-matches-explain.sql
//! (the ones docs/operations.md#data-growth times at 10M matches) is planned on a small seeded
//! database with sequential scans discouraged; a plan that still reads a big table whole
//! (matches, seats, results, replays, blobs, jobs, standings) has no index to use, and fails.

mod common;

use sqlx::PgPool;

const EXPLAIN_SQL: &str = include_str!("../../../scripts/bench/seed-matches-explain.sql");

/// The tables that grow with the matches played.
const BIG: [&str; 8] = [
    "match",
    "match_seat",
    "seat_result",
    "replay",
    "blob",
    "job",
    "standing",
    "competition_entry",
];

/// The queries of the file: (name, text), `:'name'` placeholders left in.
fn queries() -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut current: Option<(String, String)> = None;
    for line in EXPLAIN_SQL.lines() {
        if let Some(name) = line.strip_prefix("-- query: ") {
            current = Some((name.to_owned(), String::new()));
            continue;
        }
        if let Some((name, body)) = current.as_mut() {
            body.push_str(line);
            body.push('\n');
            if line.trim_end().ends_with(';') {
                out.push((std::mem::take(name), std::mem::take(body)));
                current = None;
            }
        }
    }
    out
}

/// The placeholders' values, chosen as scripts/bench/seed-matches chooses them.
async fn values(pool: &PgPool) -> Vec<(&'static str, String)> {
    let pick = |sql: &'static str| async move {
        sqlx::query_scalar::<_, uuid::Uuid>(sql)
            .fetch_one(pool)
            .await
            .unwrap()
            .to_string()
    };
    vec![
        ("competition", pick(
            "select c.competition_id from competition c join competition_progress p using (competition_id)
             where c.kind = 'round_robin' and c.status = 'finished' group by 1 order by sum(p.matches) desc limit 1",
        ).await),
        ("ladder", pick("select competition_id from competition where kind = 'ladder' limit 1").await),
        ("submission", pick(
            "select e.submission_id from competition_entry e join competition c using (competition_id)
             where c.kind = 'ladder' order by e.submission_id limit 1",
        ).await),
        ("team", pick(
            "select s.team_id from competition_entry e join competition c using (competition_id)
             join submission s using (submission_id) where c.kind = 'ladder' order by e.submission_id limit 1",
        ).await),
        ("match", pick(
            "select m.match_id from match m join competition c using (competition_id)
             where c.kind = 'ladder' and m.status = 'finished' order by m.ordinal desc limit 1",
        ).await),
        ("job", pick(
            "select j.job_id from job j join match m using (match_id) join competition c using (competition_id)
             where c.kind = 'ladder' and m.status = 'finished' order by m.ordinal desc limit 1",
        ).await),
    ]
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn every_hot_query_reads_the_big_tables_through_an_index(pool: PgPool) {
    common::seed::seed(&pool, 120, 12, 6000).await;
    let values = values(&pool).await;
    let queries = queries();
    assert!(
        queries.len() >= 15,
        "the explain file lost its queries: {}",
        queries.len()
    );
    let mut conn = pool.acquire().await.unwrap();
    sqlx::raw_sql("set enable_seqscan = off")
        .execute(&mut *conn)
        .await
        .unwrap();
    let mut scans = Vec::new();
    for (name, body) in &queries {
        let mut sql = format!("explain {body}");
        for (key, value) in &values {
            sql = sql.replace(&format!(":'{key}'"), &format!("'{value}'"));
        }
        assert!(!sql.contains(":'"), "{name}: a placeholder has no value");
        let plan: Vec<String> = sqlx::query_scalar(&sql)
            .fetch_all(&mut *conn)
            .await
            .unwrap_or_else(|e| panic!("{name}: {e}\n{sql}"));
        for line in &plan {
            let scanned = line
                .split("Seq Scan on ")
                .nth(1)
                .and_then(|rest| rest.split_whitespace().next());
            if let Some(table) = scanned.filter(|t| BIG.contains(t)) {
                scans.push(format!("{name}: reads {table} whole\n{}", plan.join("\n")));
            }
        }
    }
    assert!(scans.is_empty(), "{}", scans.join("\n\n"));
}
