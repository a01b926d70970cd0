# 在网站上发起挑战和 A/B 测试、队伍的挑战列表，以及挑战页和提交页的实时部分。

challenge-new-title = 挑战与 A/B 测试
challenge-new-intro-before = 不计评分的{ $game }对局，按照
challenge-new-intro-after = 的规则和限制进行，从不计入其排行榜。
challenge-new-budget = 每支队伍每小时最多发起 { $n } 个挑战或 A/B 测试。你亲自上桌的对局不计在内。
challenge-new-spent-hour = 你的队伍在过去一小时内已发起 { $n } 个挑战：下一个可在 UTC { $time } 发起。
challenge-new-spent-pending = 你的队伍有 { $n } 场挑战对局在排队或进行中：其中一些打完后才能发起下一个挑战。
challenge-new-no-team-before = 你需要先有一支队伍：
challenge-new-no-team-link = 创建或加入队伍
challenge-new-no-team-after = 。
challenge-new-challenge = 挑战
challenge-new-challenge-help = 为每个座位选择参赛者：本比赛的参赛程序、你队伍的就绪版本或内置机器人。每组复式对局在同一副牌上轮换座位各打一次。
challenge-new-team = 队伍
challenge-new-seats = 座位
challenge-new-seat = 座位 { $seat }
challenge-new-games = 复式组数
challenge-new-submit = 发起挑战
challenge-new-ab = A/B 测试
challenge-new-ab-help = 你队伍的两个版本在相同的牌局上对战，直到分出强弱或组数用完。
challenge-new-ab-needs-two = A/B 测试需要本游戏的两个就绪版本。
challenge-new-a = 版本 A
challenge-new-b = 版本 B
challenge-new-max-games = 最多组数
challenge-new-ab-submit = 发起 A/B 测试
challenge-new-entered = { $name }（参赛中）
challenge-new-yours = { $name }（你的队伍）
challenge-new-bad-seat = 未知的选项 { $value }。
challenge-version = { $team } v{ $version }

challenge-list-title = 挑战
challenge-list-help = 队伍的挑战、A/B 测试和真人对局，最新的在前。它们都不计入任何排行榜。
challenge-list-none = 还没有挑战。
challenge-list-all = 队伍的全部挑战
challenge-list-page = 队伍的挑战
challenge-list-start-in = 在以下比赛中发起挑战或 A/B 测试：
challenge-list-region = 队伍的挑战
challenge-list-col-what = 类型
challenge-list-col-competition = 比赛
challenge-list-col-who = 在座
challenge-list-col-status = 状态
challenge-list-col-started = 发起时间
challenge-list-table = 真人对局
challenge-list-a-person = 一位玩家
challenge-list-ab = A：{ $a } · B：{ $b }

challenge-results-table = 参与者的结果
challenge-noscript-before = 挑战进行期间本页会自动刷新；
challenge-noscript-reload = 重新加载
challenge-noscript-after = 可查看最新结果。

# The upload form's languages whose label has words to translate.
upload-language-binary = Linux x86-64 可执行文件
