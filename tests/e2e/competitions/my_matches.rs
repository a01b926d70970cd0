//! "My matches": a submission's page lists its matches (competition, seat, opponents, place,
//! score, end), newest first and paged, filtered by its result with plain links.

use axum::http::StatusCode;
use sqlx::PgPool;
use uuid::Uuid;

use super::{finish, schedule, won_by, League, Result3};

/// Results where the seat of `crasher` is last and crashed.
fn crashed(seats: usize, crasher: usize) -> Vec<Result3> {
    let mut next = 0;
    (0..seats)
        .map(|seat| {
            if seat == crasher {
                (i32::try_from(seats).unwrap(), 0.0, "crashed")
            } else {
                next += 1;
                (next, 10.0, "ok")
            }
        })
        .collect()
}

/// The match links of a page, in order.
fn match_links(body: &str) -> Vec<Uuid> {
    body.split("href=\"/matches/")
        .skip(1)
        .filter_map(|rest| rest.get(..36)?.parse().ok())
        .collect()
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_submissions_page_lists_its_matches_and_filters_wins_losses_and_faults(pool: PgPool) {
    // Arrange: Owls win the first match and crash in the second; the rest is not played
    let mut league = League::with_teams(&pool, 3).await;
    let competition_id = league.create("2").await;
    let matches = schedule(&pool, competition_id).await;
    let owls = league.entrants[0].submission_id;
    let seat = |i: usize| matches[i].1.iter().position(|s| *s == owls).unwrap();
    finish(&pool, matches[0].0, &won_by(3, seat(0)), None).await;
    finish(&pool, matches[1].0, &crashed(3, seat(1)), None).await;
    let page = format!("/submissions/{owls}");
    let alice = &mut league.entrants[0].app;

    // Act
    let all = alice.get(&page).await;
    let wins = alice.get(&format!("{page}?result=wins")).await;
    let losses = alice.get(&format!("{page}?result=losses")).await;
    let faults = alice.get(&format!("{page}?result=faults")).await;
    let bogus = alice.get(&format!("{page}?result=draws")).await;

    // Assert: every match, newest first, with its competition, seat, opponents and result
    all.assert_status(StatusCode::OK);
    let mut newest_first: Vec<Uuid> = matches.iter().map(|(id, _)| *id).collect();
    newest_first.reverse();
    assert_eq!(match_links(&all.body), newest_first);
    all.assert_shows(&format!("{} matches", matches.len()));
    all.assert_shows(&format!(
        "<a href=\"/competitions/{competition_id}\">Spring cup</a>"
    ));
    all.assert_shows("Bats v1, Cats v1");
    all.assert_shows("1st");
    all.assert_shows(">crashed</span>");
    all.assert_shows(&format!("<td class=\"num\">{}</td>", seat(0)));
    all.assert_shows(&format!(
        "href=\"/submissions/{owls}?result=faults#matches\">Faults</a>"
    ));

    // Assert: the filters
    assert_eq!(match_links(&wins.body), [matches[0].0]);
    wins.assert_shows("<strong>Wins</strong>");
    assert_eq!(match_links(&losses.body), [matches[1].0]);
    assert_eq!(match_links(&faults.body), [matches[1].0]);
    bogus.assert_status(StatusCode::BAD_REQUEST);
    bogus.assert_shows("`draws` is not a result to filter by");
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_long_list_of_matches_is_paged_and_other_teams_cannot_see_it(pool: PgPool) {
    // Arrange: enough rounds for more than one page of 20
    let mut league = League::with_teams(&pool, 3).await;
    let competition_id = league.create("25").await;
    let matches = schedule(&pool, competition_id).await;
    assert!(matches.len() > 20, "{} matches", matches.len());
    let owls = league.entrants[0].submission_id;
    let page = format!("/submissions/{owls}");

    // Act
    let first = league.entrants[0].app.get(&page).await;
    let second = league.entrants[0]
        .app
        .get(&format!("{page}?result=all&page=2"))
        .await;
    let bats = league.entrants[1].app.get(&page).await;

    // Assert
    let mut newest_first: Vec<Uuid> = matches.iter().map(|(id, _)| *id).collect();
    newest_first.reverse();
    let pages = matches.len().div_ceil(20);
    assert_eq!(match_links(&first.body), newest_first[..20]);
    first.assert_shows(&format!("page 1 of {pages}"));
    first.assert_shows(&format!(
        "href=\"/submissions/{owls}?result=all&page=2#matches\">older →</a>"
    ));
    assert_eq!(
        match_links(&second.body),
        newest_first[20..matches.len().min(40)]
    );
    second.assert_shows("← newer");
    bats.assert_status(StatusCode::NOT_FOUND);
}
