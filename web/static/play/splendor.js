// Splendor at the play page (see pick.js): a card on the table is bought or reserved by
// clicking it (a choice when both are possible), a deck reserves its top card, a reserved card
// of one's own is bought; gems are taken by clicking the bank's gems one by one, then "Take".
(function () {
  "use strict";
  var COLORS = ["white", "blue", "green", "red", "black"];

  // A card's content in one canonical text (object keys sorted), to match the board's cards
  // against the legal moves'.
  function canon(value) {
    if (Array.isArray(value)) return "[" + value.map(canon).join(",") + "]";
    if (value && typeof value === "object") {
      return "{" + Object.keys(value).sort().map(function (k) { return JSON.stringify(k) + ":" + canon(value[k]); }).join(",") + "}";
    }
    return JSON.stringify(value);
  }

  // The gems a take move takes, as {color: n}.
  function taken(action) {
    var out = {};
    if (action.action === "take_two") out[action.color] = 2;
    else (action.colors || []).forEach(function (c) { out[c] = (out[c] || 0) + 1; });
    return out;
  }

  // Whether `have` (a {color: n}) fits within `want`; `exact`: equals it.
  function within(have, want, exact) {
    for (var i = 0; i < COLORS.length; i++) {
      var c = COLORS[i], h = have[c] || 0, w = want[c] || 0;
      if (h > w || (exact && h !== w)) return false;
    }
    return true;
  }

  window.CroupierPlay.register("splendor", function (api) {
    var t = api.t;
    var colorNames = {
      white: t("viewer-splendor-white", "white"), blue: t("viewer-splendor-blue", "blue"),
      green: t("viewer-splendor-green", "green"), red: t("viewer-splendor-red", "red"),
      black: t("viewer-splendor-black", "black")
    };
    var me = (api.obs.players || [])[api.seat] || {};
    var reservedFull = (me.reserved_cards || []).length >= 3;

    // Cards on the table and in one's reserve.
    Array.prototype.forEach.call(api.board.querySelectorAll(".sp-card[data-card]"), function (node) {
      var card;
      try { card = canon(JSON.parse(node.getAttribute("data-card"))); } catch (e) { return; }
      var own = !node.closest(".sp-table");
      var same = function (a) { return a.card && canon(a.card) === card; };
      var moves = own
        ? api.find(function (a) { return a.action === "buy_reserved" && same(a); })
        : api.find(function (a) { return (a.action === "buy" || a.action === "reserve") && same(a); });
      var why = own ? t("play-sp-cannot-afford", "You cannot afford this card yet.")
        : reservedFull ? t("play-sp-cannot-afford-full", "You cannot afford this card, and you already hold 3 reserved cards.")
          : t("play-sp-cannot-afford", "You cannot afford this card yet.");
      if (!own || node.closest(".rv-me")) api.pick(node, moves, why);
    });
    // The decks: reserve their top card.
    Array.prototype.forEach.call(api.board.querySelectorAll("[data-deck]"), function (node) {
      var level = parseInt(node.getAttribute("data-deck"), 10);
      var moves = api.find(function (a) { return a.action === "reserve_blind" && a.level === level; });
      api.pick(node, moves, reservedFull ? t("play-sp-reserve-full", "You already hold 3 reserved cards.")
        : t("play-sp-deck-empty", "This deck is empty."));
    });

    // The bank's gems: clicked one by one into a selection, then taken.
    var takes = api.find(function (a) { return a.action === "take_different" || a.action === "take_two"; });
    var chosen = {};
    var bank = api.board.querySelector("[data-gems=bank]");
    var buttons = {};
    var label = api.text("");
    var take = api.button(t("play-sp-take", "Take these gems"), takes, t("play-sp-no-take", "You cannot take gems now."), function () {
      var exact = takes.filter(function (m) { return within(taken(m.action), chosen, true) && within(chosen, taken(m.action), true); });
      if (exact.length) api.choose(exact);
      else api.say(t("play-sp-take-rule", "Take three gems of different colours, or two of one colour when at least four are in the bank."));
    }, "play-sp-take");
    var clear = api.button(t("play-sp-clear", "Clear"), takes, null, function () { chosen = {}; refresh(); }, "play-sp-clear");
    api.row([take, clear]);

    function refresh() {
      var names = [];
      COLORS.forEach(function (c) {
        var b = buttons[c];
        var n = chosen[c] || 0;
        if (n) names.push(n + " " + colorNames[c]);
        if (!b) return;
        api.pressed(b, n > 0);
      });
      label.textContent = names.length ? t("play-sp-gems-chosen", "Gems chosen: {gems}", { gems: names.join(", ") })
        : t("play-sp-gems-how", "Click gems in the bank to take them.");
      var exact = takes.some(function (m) { return within(taken(m.action), chosen, true) && within(chosen, taken(m.action), true); });
      take.setAttribute("aria-disabled", exact ? "false" : "true");
    }

    if (bank) {
      Array.prototype.forEach.call(bank.querySelectorAll("[data-gem]"), function (node) {
        var color = node.getAttribute("data-gem");
        var moves = takes.filter(function (m) { return (taken(m.action)[color] || 0) > 0; });
        var why = color === "gold" ? t("play-sp-gold", "Gold comes only with a reserved card.")
          : t("play-sp-gem-none", "You cannot take this colour now.");
        buttons[color] = api.pick(node, moves, why, function () {
          // One more of this colour, if some legal take holds the selection with it; else
          // this colour alone starts the selection again.
          var more = {};
          COLORS.forEach(function (c) { more[c] = chosen[c] || 0; });
          more[color] += 1;
          var fits = takes.some(function (m) { return within(more, taken(m.action), false); });
          if (!fits) {
            more = {};
            more[color] = 1;
          }
          chosen = more;
          refresh();
        });
      });
    }
    refresh();

    var pass = api.find(function (a) { return a.action === "pass"; });
    if (pass.length) api.row([api.button(pass[0].label, pass, null, null, "play-sp-pass")]);
  });
})();
