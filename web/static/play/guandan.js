// Guandan 掼蛋 at the play page (see pick.js): cards are selected in one's hand, then "Play"
// plays them (when the selection can be read several ways, the wild card's meanings are
// offered); "Pass" passes. A tribute or a return is one card, selected and given the same way.
(function () {
  "use strict";

  // The cards of a move: ["Pair", "2", ["H2", "D2"]] → ["H2", "D2"]; a pass has none.
  function cardsOf(action) {
    if (!Array.isArray(action) || action[0] === "PASS" || !Array.isArray(action[2])) return null;
    return action[2];
  }

  function counts(cards) {
    var out = {};
    cards.forEach(function (c) { out[c] = (out[c] || 0) + 1; });
    return out;
  }

  // Whether the multiset `some` is within `all` (`exact`: the same).
  function within(some, all, exact) {
    var a = counts(all), s = counts(some);
    for (var c in s) if ((a[c] || 0) < s[c]) return false;
    return !exact || some.length === all.length;
  }

  window.CroupierPlay.register("guandan", function (api) {
    var t = api.t;
    var plays = api.moves.filter(function (m) { return cardsOf(m.action); });
    var passes = api.find(function (a) { return Array.isArray(a) && a[0] === "PASS"; });
    var stage = api.obs.stage;
    var giving = stage === "tribute" || stage === "back";
    var selected = [];
    var hand = api.board.querySelector(".gd-hand[data-seat='" + api.seat + "']");
    var nodes = hand ? Array.prototype.slice.call(hand.querySelectorAll("[data-card]")) : [];
    var buttons = [];

    var label = api.text("");
    var play = api.button(giving ? t("play-gd-give", "Give this card") : t("play-gd-play", "Play the selected cards"), plays,
      t("play-gd-cannot-play", "You have nothing you may play now."), function () {
        var codes = selected.map(function (b) { return b.getAttribute("data-code"); });
        var matching = plays.filter(function (m) { return within(codes, cardsOf(m.action), true); });
        if (matching.length) api.choose(matching);
        else if (!codes.length) api.say(t("play-gd-select-first", "Select cards in your hand first."));
        else api.say(t("play-gd-not-a-play", "These cards are not a combination you may play now."));
      }, "play-gd-play");
    var row = [play];
    var clear = api.button(t("play-gd-clear", "Clear"), plays, null, function () {
      selected.forEach(function (b) { api.pressed(b, false); });
      selected = [];
      refresh();
    }, "play-gd-clear");
    row.push(clear);
    if (!giving) row.push(api.button(t("play-gd-pass", "Pass"), passes, t("play-gd-must-play", "You lead this trick: you may not pass."), null, "play-gd-pass"));
    api.row(row);

    // A card can be selected if some legal play holds the selection with it.
    function refresh() {
      var codes = selected.map(function (b) { return b.getAttribute("data-code"); });
      buttons.forEach(function (b) {
        if (b.getAttribute("aria-pressed") === "true") return;
        var more = codes.concat([b.getAttribute("data-code")]);
        var fits = plays.some(function (m) { return within(more, cardsOf(m.action), false); });
        b.setAttribute("aria-disabled", fits ? "false" : "true");
        b.title = fits ? "" : t("play-gd-card-no-fit", "No play you may make holds this card with those selected.");
      });
      var exact = plays.filter(function (m) { return within(codes, cardsOf(m.action), true); });
      play.setAttribute("aria-disabled", exact.length ? "false" : "true");
      label.textContent = codes.length
        ? t("play-gd-selected", "Selected: {cards}", { cards: selected.map(function (b) { return b.textContent; }).join(" ") }) +
          (exact.length > 1 ? " \u00b7 " + t("play-gd-meanings", "{n} ways to read them (the wild card)", { n: exact.length }) : "")
        : (giving ? t("play-gd-how-give", "Select the card to give.") : t("play-gd-how", "Select cards in your hand, then play them."));
    }

    nodes.forEach(function (node) {
      var code = node.getAttribute("data-card");
      var any = plays.filter(function (m) { return cardsOf(m.action).indexOf(code) >= 0; });
      var button = api.pick(node, any, giving ? t("play-gd-cannot-give", "The rules do not let you give this card.")
        : t("play-gd-card-unused", "No play you may make now holds this card."), function () {
        var on = button.getAttribute("aria-pressed") === "true";
        if (!on && button.getAttribute("aria-disabled") === "true") {
          api.say(button.title);
          return;
        }
        if (giving && !on) {
          selected.forEach(function (b) { api.pressed(b, false); });
          selected = [];
        }
        api.pressed(button, !on);
        if (on) selected = selected.filter(function (b) { return b !== button; });
        else selected.push(button);
        refresh();
      });
      button.setAttribute("data-code", code);
      if (any.length) {
        api.pressed(button, false);
        buttons.push(button);
      }
    });
    refresh();
  });
})();
