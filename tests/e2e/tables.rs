//! Every data table on every page has column headers: a `<thead>` whose cells are
//! `<th scope="col">` with a text, so screen readers can name each cell's column.

use axum::http::StatusCode;
use sqlx::PgPool;

use crate::competitions::{finish, schedule, League, Result3};
use crate::helpers::Page;

/// Panics unless every `<table>` of `page` has a `<thead>` before its body, and every header
/// cell in it has `scope="col"` and a text.
#[track_caller]
fn assert_headed_tables(path: &str, page: &Page) {
    page.assert_status(StatusCode::OK);
    let mut tables = 0;
    for table in page.body.split("<table").skip(1) {
        tables += 1;
        let table = &table[..table.find("</table>").unwrap_or(table.len())];
        let head_at = table.find("<thead>");
        let body_at = table.find("<tbody").or_else(|| table.find("<tr"));
        assert!(
            head_at.is_some_and(|h| body_at.is_none_or(|b| h < b)),
            "{path}: a table without a <thead>:\n<table{table}"
        );
        let head = &table[..table.find("</thead>").expect("a closed thead")];
        let cells: Vec<&str> = head
            .split("<th")
            .skip(1)
            .filter(|c| !c.starts_with("ead"))
            .collect();
        assert!(!cells.is_empty(), "{path}: a <thead> without <th>:\n{head}");
        for cell in cells {
            assert!(cell.starts_with(r#" scope="col""#), "{path}: <th{cell}");
            let text = &cell[cell.find('>').map_or(0, |i| i + 1)..];
            let text = &text[..text.find("</th>").unwrap_or(text.len())];
            assert!(!text.trim().is_empty(), "{path}: an empty header <th{cell}");
        }
    }
    assert!(tables > 0, "{path}: expected a table to check");
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn every_data_table_has_column_headers(pool: PgPool) {
    // Arrange: a competition with a finished match, an API token, a submission
    let mut league = League::with_teams(&pool, 3).await;
    let competition_id = league.create("1").await;
    let (match_id, _) = schedule(&pool, competition_id).await.remove(0);
    let ranks: Vec<Result3> = (1..=3).map(|r| (r, f64::from(r), "ok")).collect();
    finish(&pool, match_id, &ranks, None).await;
    let owls = league.entrants[0].team_id;
    let submission = league.entrants[0].submission_id;
    let alice = &mut league.entrants[0].app;
    alice
        .submit_form(
            &format!("/teams/{owls}"),
            &format!("/teams/{owls}/tokens"),
            &[("name", "laptop")],
        )
        .await;
    let mut alice_pages = vec![
        "/teams".to_owned(),
        format!("/teams/{owls}"),
        format!("/submissions/{submission}"),
    ];
    // The games' pages, whose tables come from the docs' Markdown.
    alice_pages.extend(
        ["nothanks", "splendor", "hanabi", "guandan", "bridge"].map(|g| format!("/games/{g}")),
    );
    let admin_pages = [
        "/admin".to_owned(),
        "/admin/competitions/new?game=nothanks".to_owned(),
        format!("/competitions/{competition_id}"),
        format!("/competitions/{competition_id}/leaderboard"),
        format!("/matches/{match_id}"),
    ];

    // Act + Assert
    for path in &alice_pages {
        let page = league.entrants[0].app.get(path).await;
        assert_headed_tables(path, &page);
    }
    for path in &admin_pages {
        let page = league.admin.get(path).await;
        assert_headed_tables(path, &page);
    }
}
