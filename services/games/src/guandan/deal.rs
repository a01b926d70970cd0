//! Tricks, going out, 接风, the end of a deal, levels and the end of the game.

use super::action::{Action, Play};
use super::cards::{deal, Level, ACE};
use super::events::Event;
use super::settings::AWin;
use super::state::{partner, team, Area, Guandan, Stage};
use crate::api::Seat;

impl Guandan {
    fn active(&self, seat: Seat) -> bool {
        !self.finished.contains(&seat)
    }

    fn next_active(&self, from: Seat) -> Seat {
        let mut seat = from.next(4);
        for _ in 0..4 {
            if self.active(seat) {
                return seat;
            }
            seat = seat.next(4);
        }
        seat
    }

    pub(super) fn pass(&mut self, seat: Seat, events: &mut Vec<Event>) {
        events.push(Event::Played {
            seat,
            action: Action::Pass,
        });
        self.last = Some((seat, Action::Pass));
        if let Some(area) = self.areas.get_mut(seat.index()) {
            *area = Area::Passed;
        }
        self.passes += 1;
        let Some((best_seat, _)) = self.greater else {
            return;
        };
        let others = Seat::all(4)
            .filter(|&s| s != best_seat && self.active(s))
            .count();
        if self.passes >= others {
            let leader = if self.active(best_seat) {
                best_seat
            } else if self.active(partner(best_seat)) {
                partner(best_seat)
            } else {
                self.next_active(best_seat)
            };
            self.new_trick(leader);
            events.push(Event::TrickOver { leader });
        } else {
            self.to_act = self.next_active(seat);
        }
    }

    pub(super) fn new_trick(&mut self, leader: Seat) {
        self.greater = None;
        self.last = None;
        self.passes = 0;
        for area in &mut self.areas {
            *area = Area::Cleared;
        }
        self.to_act = leader;
    }

    pub(super) fn play(&mut self, seat: Seat, play: Play, events: &mut Vec<Event>) {
        if let Some(hand) = self.hands.get_mut(seat.index()) {
            for card in &play.cards {
                if let Some(at) = hand.iter().position(|c| c == card) {
                    hand.remove(at);
                }
            }
        }
        events.push(Event::Played {
            seat,
            action: Action::Play(play.clone()),
        });
        self.last = Some((seat, Action::Play(play.clone())));
        if let Some(area) = self.areas.get_mut(seat.index()) {
            *area = Area::Played(Action::Play(play.clone()));
        }
        self.greater = Some((seat, play));
        self.passes = 0;
        if self.hand(seat).is_empty() {
            self.finished.push(seat);
            events.push(Event::Out {
                seat,
                place: self.finished.len(),
            });
            let first_two_partners =
                matches!(self.finished.as_slice(), [a, b] if team(*a) == team(*b));
            if self.finished.len() >= 3 || first_two_partners {
                self.end_deal(events);
                return;
            }
        }
        self.to_act = self.next_active(seat);
    }

    /// Scores the deal, updates levels, ends the game or deals the next deal.
    fn end_deal(&mut self, events: &mut Vec<Event>) {
        let mut order = self.finished.clone();
        let mut seat = order.last().copied().unwrap_or(Seat(0));
        while order.len() < 4 {
            seat = seat.next(4);
            if !order.contains(&seat) {
                order.push(seat);
            }
        }
        let Some(&first) = order.first() else {
            return;
        };
        let winners = team(first);
        let partner_place = order.iter().position(|&s| s == partner(first)).unwrap_or(3) + 1;
        let at_a = self.level == ACE && self.levels.get(winners) == Some(&ACE);
        let needed = match self.settings.a_win {
            AWin::FirstSecond => 2,
            AWin::FirstSecondOrThird => 3,
        };
        let level_before = self.levels;
        if let Some(level) = self.levels.get_mut(winners) {
            *level = (*level + [3, 2, 1].get(partner_place - 2).copied().unwrap_or(1)).min(ACE);
        }
        let next_level = self.levels.get(winners).copied().unwrap_or(2);
        let rest_cards = order
            .iter()
            .rev()
            .filter(|s| !self.finished.contains(s))
            .map(|&s| (s, self.hand(s).to_vec()))
            .collect();
        events.push(Event::DealOver {
            order: order.clone(),
            played_rank: Level(self.level),
            rest_cards,
            cur_rank: Level(next_level),
            levels: self.levels.map(Level),
        });
        if at_a && partner_place <= needed {
            self.finish(Some(winners), events);
            return;
        }
        for t in 0..2 {
            if level_before.get(t) == Some(&ACE) {
                let fails = self.a_fails.get_mut(t);
                if let Some(fails) = fails {
                    *fails += 1;
                    if *fails >= self.settings.a_failures {
                        *fails = 0;
                        self.drops += 1;
                        if let Some(level) = self.levels.get_mut(t) {
                            *level = 2;
                        }
                    }
                }
            }
        }
        if self.drops >= self.settings.max_drops {
            self.finish(None, events);
            return;
        }
        self.level = self.levels.get(winners).copied().unwrap_or(2);
        self.deal_number += 1;
        self.hands = deal(&mut self.rng, self.level);
        self.finished.clear();
        self.areas = vec![Area::Empty; 4];
        self.new_trick(first);
        self.areas = vec![Area::Empty; 4];
        events.push(Event::DealStarted {
            deal: self.deal_number,
            cur_rank: Level(self.level),
            levels: self.levels.map(Level),
        });
        self.start_tribute(&order, events);
    }

    fn finish(&mut self, winner: Option<usize>, events: &mut Vec<Event>) {
        self.result = Some(winner);
        self.stage = Stage::Over;
        events.push(Event::GameOver { winner });
    }
}
