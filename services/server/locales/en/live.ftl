# What pages say while something runs: a submission being built, a match being played.

submission-building-before = This page follows the build and the validation game;{" "}
submission-building-reload = reload it
submission-building-after = {" "}to see it now.

match-running-for = Running for
match-elapsed = { $min } min { $s } s
match-elapsed-hours = { $h } h { $min } min
match-moves-so-far = { $n ->
    [one] 1 move played in game { $game }
   *[other] { $n } moves played in game { $game }
}
