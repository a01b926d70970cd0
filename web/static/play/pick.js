// Playing by clicking the board (the play page, web/static/play.js): the toolkit the games'
// controls (web/static/play/<game>.js) use on the board the replay viewer drew. Only moves on
// the engine's legal list can be chosen; a part of the board that leads to none says why
// (its title and aria-describedby) and stays focusable, so the reason can be read. A chosen
// move is only selected: "Send" sends it, "Undo" puts it back (moves cannot be taken back).
//
// A game registers CroupierPlay.register("<game>", function (api) { … }) and uses:
//   api.obs, api.seat, api.moves ([{index, label, action}]), api.board, api.panel
//   api.pick(node, moves, why, choose)  the board's node as a button choosing among `moves`
//   api.button(text, moves, why, choose) a button in the panel
//   api.choose(moves)                    one move: selected; several: a choice between them
//   api.row(nodes)                       a row of buttons in the panel
//
// The DOM contract the browser tests rely on: #play-controls holds the panel; every button
// that can choose is .pl-pick (aria-disabled="true" when it cannot); a choice between moves
// is #play-choice with .pl-option buttons; the selected move is shown in #play-selected,
// with #play-send and #play-undo.
(function () {
  "use strict";
  var t = window.croupierWords.t;
  var controls = {};
  var reasons = 0;

  function el(tag, attrs, children) { return window.CroupierViewer.el(tag, attrs, children); }

  function start(opts) {
    var board = opts.board;
    var panel = el("div", { id: "play-controls", class: "pl-panel", role: "group", "aria-labelledby": "play-controls-h" }, [
      el("h3", { id: "play-controls-h", class: "pl-title", text: t("play-your-move", "Your move") })
    ]);
    var body = el("div", { class: "pl-body" });
    var choice = el("div", { id: "play-choice", class: "pl-choice", hidden: true });
    var selected = el("div", { id: "play-selected", class: "pl-selected", hidden: true });
    var why = el("div", { class: "visually-hidden" });
    panel.appendChild(body);
    panel.appendChild(choice);
    panel.appendChild(selected);
    panel.appendChild(why);
    // Next to the person's own seat (first among the seats, see play.css), so that on a phone
    // the controls are beside the seats, not under the whole board.
    var mine = board.querySelector(".rv-player.rv-me");
    if (mine) mine.appendChild(panel);
    else board.insertBefore(panel, board.firstChild);

    var api = {
      obs: opts.obs || {},
      seat: opts.seat,
      moves: opts.moves,
      players: opts.players,
      board: board,
      panel: body,
      el: el,
      t: t,
      // Moves whose action passes `test`.
      find: function (test) { return opts.moves.filter(function (m) { return test(m.action); }); },
      pick: function (node, moves, reason, chosen) {
        var button = el("button", { type: "button", class: "pl-pick" });
        node.parentNode.replaceChild(button, node);
        button.appendChild(node);
        arm(button, moves, reason, chosen);
        return button;
      },
      button: function (text, moves, reason, chosen, id) {
        var button = el("button", { type: "button", id: id || null, class: "pl-pick pl-button", text: text });
        arm(button, moves, reason, chosen);
        return button;
      },
      row: function (nodes, label) {
        var row = el("div", { class: "pl-row", role: label ? "group" : null, "aria-label": label || null }, nodes);
        body.appendChild(row);
        return row;
      },
      text: function (words) {
        var p = el("p", { class: "pl-text", text: words });
        body.appendChild(p);
        return p;
      },
      choose: choose,
      // Marks a button chosen (pressed) or not, for selections built of several clicks.
      pressed: function (button, on) {
        button.setAttribute("aria-pressed", on ? "true" : "false");
        button.classList.toggle("pl-on", !!on);
      }
    };

    // `moves` empty: the button says why it cannot be used. Otherwise a click runs `chosen`
    // (or offers the moves).
    function arm(button, moves, reason, chosen) {
      if (!moves || moves.length === 0) {
        button.setAttribute("aria-disabled", "true");
        if (reason) {
          var id = "play-why-" + (++reasons);
          why.appendChild(el("span", { id: id, text: reason }));
          button.setAttribute("aria-describedby", id);
          button.title = reason;
        }
        button.addEventListener("click", function () { say(reason || t("play-not-now", "Not possible now.")); });
        return;
      }
      if (moves.length === 1 && !chosen) button.title = moves[0].label;
      button.addEventListener("click", function () {
        if (panel.getAttribute("data-sending") === "1") return;
        if (chosen) chosen(moves); else choose(moves);
      });
    }

    // A short note in the panel (why a click did nothing).
    function say(words) {
      var note = panel.querySelector(".pl-note");
      if (!note) {
        note = el("p", { class: "pl-note", role: "status" });
        panel.appendChild(note);
      }
      note.textContent = words;
    }
    api.say = say;

    function choose(moves) {
      choice.textContent = "";
      choice.hidden = true;
      if (moves.length === 1) { select(moves[0]); return; }
      choice.appendChild(el("p", { class: "pl-text", text: t("play-which", "Which one?") }));
      moves.forEach(function (m) {
        var b = el("button", { type: "button", class: "pl-option", "data-move": m.index, "data-action": JSON.stringify(m.action), text: m.label });
        b.addEventListener("click", function () { select(m); });
        choice.appendChild(b);
      });
      var cancel = el("button", { type: "button", class: "pl-cancel", text: t("play-cancel", "Cancel") });
      cancel.addEventListener("click", function () { choice.hidden = true; choice.textContent = ""; });
      choice.appendChild(cancel);
      choice.hidden = false;
      reveal(choice.querySelector("button"));
    }

    // The move is selected: Send sends it, Undo forgets it.
    function select(move) {
      choice.hidden = true;
      choice.textContent = "";
      selected.textContent = "";
      var send = el("button", { type: "button", id: "play-send", class: "pl-send", "data-move": move.index, text: t("play-send", "Send") });
      var undo = el("button", { type: "button", id: "play-undo", text: t("play-undo", "Undo") });
      selected.appendChild(el("p", { class: "pl-text" }, [
        t("play-selected", "Selected:") + " ", el("strong", { text: move.label })
      ]));
      selected.appendChild(el("div", { class: "pl-row" }, [send, undo]));
      selected.hidden = false;
      send.addEventListener("click", function () {
        if (panel.getAttribute("data-sending") === "1") return;
        panel.setAttribute("data-sending", "1");
        send.disabled = true;
        undo.disabled = true;
        send.setAttribute("aria-busy", "true");
        opts.send(move);
      });
      undo.addEventListener("click", function () {
        selected.hidden = true;
        selected.textContent = "";
        if (opts.onUndo) opts.onUndo();
      });
      reveal(send);
    }

    function reveal(button) {
      if (!button) return;
      if (button.scrollIntoView) button.scrollIntoView({ block: "nearest" });
      button.focus();
    }

    return api;
  }

  window.CroupierPlay = {
    register: function (game, draw) { controls[game] = draw; },
    // Draws the controls of `opts.game` on the drawn board; false when the game has none.
    controls: function (opts) {
      var draw = controls[opts.game];
      if (!draw) return false;
      var api = start(opts);
      opts.onUndo = function () { /* the board stays as it was: choose again */ };
      draw(api);
      return true;
    }
  };
})();
