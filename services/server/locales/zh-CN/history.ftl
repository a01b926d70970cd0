# 评分与得分的历史：提交页的曲线图、排行榜的迷你走势图。
history-name-rating = 评分
history-name-mean = 平均分
history-no-matches = 尚无对局
history-summary = { $what } { $first } → { $last }（共 { $n } 场对局）
history-y-rating = 评分 μ（带：μ ± 3σ）
history-x-rated = 计入评分的对局
history-y-mean = 平均分（带：95% 置信区间）
history-x-played = 已赛对局
history-now-rating = 当前 μ { $mu }，σ { $sigma }：评分 { $display }。
history-now-interval = 当前 { $mean } ± { $h }。
history-now-mean = 当前 { $mean }。
history-caption-rating = 曲线是每场计分对局后的 μ；带为 μ ± 3σ，其下沿就是排行榜显示的评分（μ − 3σ）。
history-caption-mean = 曲线是到目前为止的平均分；带为其 95% 置信区间。
