# 运行中的页面文字：正在编译的提交、正在进行的对局。

submission-building-before = 本页会跟进编译和验证对局；
submission-building-reload = 重新加载
submission-building-after = 可立即查看。

match-running-for = 已进行
match-elapsed = { $min } 分 { $s } 秒
match-elapsed-hours = { $h } 小时 { $min } 分
match-moves-so-far = 第 { $game } 局已走 { $n } 步
