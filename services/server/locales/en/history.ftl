# Rating and score histories: the submission page's plots, the leaderboard's sparklines.
history-name-rating = rating
history-name-mean = mean score
history-no-matches = no matches yet
history-summary = { $what } { $first } → { $last } over { $n ->
        [1] { $n } match
       *[other] { $n } matches
    }
history-y-rating = rating μ (band μ ± 3σ)
history-x-rated = matches rated
history-y-mean = mean score (band: 95% CI)
history-x-played = matches played
history-now-rating = Now μ { $mu }, σ { $sigma }: rating { $display }.
history-now-interval = Now { $mean } ± { $h }.
history-now-mean = Now { $mean }.
history-caption-rating = The line is μ after each rated match; the band is μ ± 3σ, and its lower edge is the rating the leaderboard shows (μ − 3σ).
history-caption-mean = The line is the mean score so far; the band is its 95% confidence interval.
