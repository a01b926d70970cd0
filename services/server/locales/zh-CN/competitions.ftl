# Competitions: the list, a competition's page, the new-competition form, the organiser's
# controls, leaderboards, challenges and the admin page.
# Shown unescaped (`|safe`, for their apostrophes and quotes): new-choose-note-after,
# new-rule-settings-note, new-entries-note, new-kind-ladder, board-rating-rule and
# board-trend-*: no markup in them, and no arguments.

## The list of competitions
competitions-title = 排行榜
competitions-new = 新建比赛
competitions-none = 还没有安排任何比赛。组织者开始循环赛后，它的排行榜、对局和回放会显示在这里，每个游戏一个榜单。
competitions-none-yet = 暂无比赛。
competitions-leaderboard-link = 排行榜
competitions-archived = 已归档的比赛（{ $n }）

## A competition's page
competition-status-scheduled = 已安排
competition-status-running = 进行中
competition-status-paused = 已暂停
competition-status-finished = 已结束
competition-status-cancelled = 已取消
competition-match-queued = 排队中
competition-match-running = 进行中
competition-match-finished = 已结束
competition-match-failed = 失败
competition-match-cancelled = 已取消
competition-play = 与机器人对战
competition-play-note = —— 亲自入座（不计评分）
competition-game = 游戏
competition-rules = 规则
competition-schedule = 赛程
competition-entries = { $n } 个参赛机器人
competition-rounds = { $n } 轮
competition-base-seed = 基础种子
competition-base-seed-hidden = 所有对局结束前隐藏
competition-move-time = 每步时限
competition-ms = { $ms } 毫秒
competition-default = 游戏默认值
competition-games-per-match = 每场对局局数
competition-created = 创建于
competition-created-by = { $when }，由 { $who } 创建
competition-progress = 进度
competition-cancel-queued = 取消排队中的对局
competition-rerun = 重跑 { $n } 场失败对局
competition-cancel-note = 取消只停止排队中的对局；进行中的对局会打完并计入成绩。
competition-resume = 继续
competition-pause = 暂停
competition-close-entries = 停止报名
competition-open-entries = 开放报名
competition-finish = 结束
competition-organise = 重命名、归档或删除
competition-name-label = 名称
competition-rename = 重命名
competition-unarchive = 从归档中恢复
competition-archive = 归档
competition-archive-note = （不再出现在公开列表中；页面仍保留）
# Around the competition's name, in bold.
competition-delete-before = 输入比赛名称
competition-delete-after = ，即可删除这场比赛及其赛程（尚未进行任何对局）：
competition-delete = 删除比赛
competition-no-delete = 已有成绩的比赛不能删除，请改为归档。
competition-archived-note = 这场比赛已归档：它不在公开列表中。
competition-full-page = 完整页面
competition-matches = 对局
competition-no-matches = 没有对局。
competition-col-status = 状态
competition-col-seats = 座位（名次 · 得分）
competition-col-finished = 结束时间
competition-seat-title = 座位
competition-previous = ← 上一页
competition-page = 第 { $page } 页，共 { $pages } 页
competition-next = 下一页 →
competition-cancelled = 已取消：{ $n } 场排队中的对局不再进行；进行中的对局会打完并计入成绩。
competition-rerun-none = 没有需要重跑的失败对局。
competition-rerun-done = { $n } 场失败对局已重新排队。
competition-no-such-result = 不能按 `{ $asked }` 筛选结果：可选 all、wins、losses 或 faults
# A ladder's levers.
competition-ladder-paused = 已暂停：恢复前不再安排新对局；已排队的对局照常进行。
competition-ladder-resumed = 已继续。
competition-ladder-finished = 已结束：排队中的对局已取消；进行中的对局会打完并计入成绩。
competition-ladder-closed = 已停止报名：已参赛的机器人继续比赛；新的提交不再加入。
competition-ladder-open = 已开放报名：每支队伍最新的可用机器人都会加入。
competition-ladder-not-running = 没有该 id 的进行中天梯赛（已结束或已取消的天梯赛不能更改）
# Why a competition is refused (the form and the API).
competition-bad-name = 比赛名称须为 1 到 80 个字符
competition-bad-rules = { $game } 的规则集为 { $rule_sets }，没有 { $rules }
competition-not-ready = 提交 { $id } 不是可用的 { $game } 机器人
competition-shared-member = { $user } 同时在 { $first } 和 { $second } 两个队伍中：每人每场比赛只能随一个队伍参赛，请去掉其中一个
competition-bad-kind = 比赛类型只能是循环赛（round_robin）或天梯赛（ladder）
competition-too-few = { $game } 至少需要队伍的 { $need } 个可用机器人，但只选了 { $got } 个
competition-cannot-schedule = 无法为这场比赛排赛程：{ $error }
competition-bad-rounds = 轮数必须在 1 到 { $max } 之间，而不是 { $n }
competition-bad-move-time = 每步时限必须在 1 到 { $max } 毫秒之间，而不是 { $n }
competition-bad-games-per-match = 每场对局局数必须在 1 到 { $max } 之间，而不是 { $n }
competition-too-many-games = 与原平台一致，{ $game } 每场对局最多 { $max } 局，不能是 { $n }：请改为增加轮数
# Before the JSON value given.
competition-bad-rule-settings = 规则集的覆盖设置必须是 JSON 对象，而不是
competition-bad-ladder-pace = 天梯赛每小时安排 { $lo } 到 { $hi } 场对局，不能是 { $n }

## The organiser's controls
manage-nothing-changed = 未做任何更改：{ $reason }。
# The store's refusals, in its own words.
manage-refused-ladder-pause = 天梯赛请用它自己的“暂停”按钮暂停（停止安排新对局）
manage-refused-ladder-resume = 天梯赛请用它自己的“继续”按钮继续
manage-refused-cancelled = 比赛已取消
manage-refused-finished = 比赛已结束：所有对局均已完成
manage-refused-not-paused = 比赛没有暂停
manage-refused-played = 其中 { $n } 场对局已进行或正在进行；有成绩的比赛只能归档，不能删除
manage-renamed = 已重命名为 { $name }。
manage-paused = 已暂停：{ $n } 场排队中的对局等待中；进行中的对局会打完并计入成绩。
manage-resumed = 已继续：{ $n } 场对局重新排队。
manage-delete-unconfirmed = 未做任何更改：删除比赛需输入比赛名称。
manage-deleted = 比赛 { $name } 已删除。
manage-archived = 已归档：比赛不再出现在列表中；其页面地址不变。
manage-unarchived = 已从归档中恢复：比赛重新出现在列表中。

## The new-competition form
new-create-short = 创建
new-choose-game = 选择游戏
# Around the game's name.
new-choose-note-before = 下面的规则集和参赛机器人属于
new-choose-note-after = ：更换游戏后，请点击“选择游戏”查看新游戏的选项。
new-name-placeholder = 例如：{ $game } 春季循环赛
new-rule-set = 规则集
new-format = 赛制
new-rule-settings = 规则设置
new-rule-settings-note = （可选，用 JSON 覆盖规则集的设置，例如 {"{"}"players": 5{"}"}）
new-entries = 参赛：可用的 { $game } 机器人
new-no-bots = 还没有队伍拥有可用的 { $game } 机器人。
new-col-entered = 参赛
new-col-team = 队伍
new-col-version = 版本
new-col-language = 语言
new-col-uploaded = 上传时间
new-latest = 最新
new-entries-note = 默认勾选每支队伍最新的可用版本。每组参赛者在同一副牌上轮换所有座位（复式），每轮一次。
new-kind = 类型
new-kind-round-robin = 循环赛：所有对局现在排定，轮数见下方
new-kind-ladder = 天梯赛：持续进行；每支队伍最新的可用机器人自动参赛并替换其旧版本；按评分和不确定度安排对局，新机器人先打定级赛
new-matches-per-hour = 天梯赛每小时对局数
new-optional = （可选）
new-rounds = 轮数
new-base-seed = 基础种子
new-random = 随机
new-move-time = 每步时限（毫秒）
new-game-default = 游戏默认值
new-limits-note = 最多 { $max } 轮。相同的种子和参赛者会得到相同的赛程。默认每步时限与原平台一致（璀璨宝石 2 秒，桥牌 5 秒，其他 10 秒）。每场对局局数：掼蛋为从 2 打到 A 的局数，桥牌为每桌的牌副数（默认 4，其他为 1）。
new-create = 创建并安排对局
new-created = 比赛已创建：{ $entries } 个参赛机器人，{ $matches } 场对局已排队。
new-unknown-game = 本站没有游戏 { $game }
new-game-changed = 游戏已改为 { $game }，但没有点击“选择游戏”，所以没有创建比赛：下面是 { $game } 的规则集和可用机器人。请检查后重新创建。
new-not-number = { $what }必须是整数，而不是 { $value }
new-what-rounds = 轮数
new-what-base-seed = 基础种子
new-what-move-time = 每步时限
new-what-games-per-match = 每场对局局数
new-what-matches-per-hour = 天梯赛每小时对局数
new-bad-submission-id = { $id } 不是提交 id
new-bad-kind = { $kind } 不是比赛类型
new-bad-format = { $format } 不是赛制
new-settings-not-json = 规则设置不是有效的 JSON：{ $error }

## A challenge or A/B test
challenge-title = 挑战
challenge-ab-title = A/B 测试
challenge-done = 已完成
challenge-running = 进行中
# "In <its competition>, unrated:"
challenge-in = 在
challenge-its-competition = 所属比赛
challenge-unrated = 中进行，不计评分：
challenge-groups = 最多 { $n } 组复式对局
challenge-counts = { $finished } 场已结束，{ $running } 场进行中，{ $queued } 场排队中，{ $failed } 场失败，{ $cancelled } 场已取消
challenge-verdict = 结论
challenge-results = 结果
challenge-col-participant = 参与者
challenge-col-score = 每场得分（95% 置信区间）
challenge-none-finished = 还没有已结束的对局。
challenge-match = 第 { $n } 场
challenge-at-table = 在座：
challenge-your-seat = 你的座位
# Before the id's first 8 hex digits.
challenge-builtin = 内置机器人 { $name }
challenge-person = { $name }（真人）
challenge-verdict-continue = 仍在进行：目前已打 { $n } 组。
challenge-verdict-a = A 更强（{ $n } 组后得出）。
challenge-verdict-b = B 更强（{ $n } 组后得出）。
challenge-verdict-same = 没有实质差异（{ $n } 组后）。
challenge-verdict-inconclusive = 无法判定：已打 { $n } 组仍未得出结论。
# The A/B numbers: "Mean difference A − B per group 0.42 (positive: A better); 95% CI 0.10 to
# 0.74; anytime-valid -0.20 to 1.04."
challenge-mean-diff = 每组 A − B 的平均差
challenge-positive = （正值表示 A 更强）
challenge-sep = ；
challenge-end = 。
challenge-ci = 95% 置信区间
challenge-to = 至
challenge-no-interval = 尚无区间
challenge-anytime = 随时有效区间
challenge-anytime-infinite = 随时有效区间尚未收敛为有限值

## The admin page
admin-title = 管理
admin-heading = 管理
# "Competitions and their progress are listed on the <Leaderboards> page."
admin-competitions-before = 比赛及其进度列在
admin-competitions-after = 页面。
admin-reset-heading = { $user } 的密码重置链接
admin-reset-note = 请亲自把这个链接交给 { $user }；它只能使用一次，有效期至 { $expires }，且只在此时显示：
admin-users = 用户（{ $n }）
admin-col-username = 用户名
admin-col-email = 邮箱
admin-col-joined = 注册时间
admin-col-role = 角色
admin-col-action = 操作
admin-role-admin = 管理员
admin-role-user = 用户
admin-remove-admin = 撤销管理员
admin-make-admin = 设为管理员
admin-reset-label = 为 { $user } 生成密码重置链接
admin-reset-link = 重置链接
admin-teams = 队伍（{ $n }）
admin-col-members = 成员
admin-col-submissions = 提交
admin-workers = 评测机（{ $n }）
admin-workers-label = 评测机
# "No worker has been heard of in the last day. Start one with <croupier work> (or <croupier up>)."
admin-no-workers = 最近一天没有任何评测机的消息。可用
admin-no-workers-or = （或
admin-no-workers-end = ）启动一个。
admin-col-worker = 评测机
admin-col-host = 主机
admin-col-started = 启动时间
admin-col-last-heard = 最后心跳
admin-col-state = 状态
admin-col-doing = 当前任务
admin-state-stopped = 已停止
admin-state-alive = 在线
admin-state-silent-s = 已 { $n } 秒无响应
admin-state-silent-min = 已 { $n } 分钟无响应
admin-state-silent-h = 已 { $n } 小时无响应
admin-doing-match = 一场对局
admin-doing-build = 一次构建
admin-idle = 空闲
admin-own-role = 不能撤销自己的管理员角色
admin-now-admin = { $user } 现在是管理员。
admin-no-longer-admin = { $user } 不再是管理员。

## Leaderboards (the table is kept in memory; see leaderboard.rs)
board-title = 排行榜
board-heading-suffix = 排行榜
board-progress-link = 进度与对局
board-no-entries = 暂无参赛者。
board-col-bot = 机器人
board-col-games = 局数
board-col-mean = 平均分
board-col-wins = 胜局
board-col-best = 最高分
board-col-faults = 异常
board-col-ci = 每局（95% 置信区间）
board-col-rating = 评分
board-col-trend = 走势
board-lower-better = 本游戏中分数越低越好
board-best-title = 单局最高得分
board-ci-title = 每局的{ $metric }及其 95% 置信区间
board-rating-title = Weng-Lin 评分：μ − 3σ
board-rating-shown = 显示的是 μ − 3σ
board-trend-title-rated = 每场对局后的评分
board-trend-title-mean = 每场对局后的平均分
# What decides the position, in each game's own terms.
board-metric-rank-points = 积分
board-metric-games-won = 胜局（过A）
board-metric-imps = IMP
board-metric-mean-score = 平均分
board-extra-splendor-heading = battle 分数
board-extra-splendor = battle 分数 { $score }
board-extra-guandan-heading = 平局
board-extra-guandan = 平局 { $n } 次
board-extra-bridge-heading = 每副
# After the IMPs per board, e.g. "1.50 IMP/副，共 4 副，120 分".
board-extra-bridge = IMP/副，共 { $boards } 副，{ $points } 分
# The small print under the table, in pieces.
board-from = 基于 { $n } 场已结束的对局。
board-ranked-by = 按{ $metric }排名
board-rank-points-rule = （第一名 4 分，第二名 2 分，第三名 1 分）
board-ties = ；数值相同则名次并列，再按平均分高者在前。区间为每局{ $metric }的 95% 置信区间
board-rating-rule = ；评分为 Weng-Lin 的 μ − 3σ
board-trend-rated = 。走势为机器人每场对局后的评分（其队伍可在提交页面查看完整曲线）。失败和取消的对局从不计入。
board-trend-mean = 。走势为机器人每场对局后的平均分（其队伍可在提交页面查看完整曲线）。失败和取消的对局从不计入。
competition-settings-note = 每步时限、每场局数和每个座位的资源限制可在第一场对局开始前修改（留空即默认）；天梯的节奏随时可改。
competition-setting-move-time = 每步时限（毫秒）
competition-setting-games = 每场局数
competition-setting-memory = 每个座位的内存（MiB）
competition-setting-disk = 每个座位的磁盘（MiB）
competition-setting-cpu = 每个座位的 CPU（千分之一核）
competition-setting-per-hour = 每小时对局数
competition-setting-pending = 同时排队或进行的对局数
competition-setting-default = 默认
competition-settings-save = 保存设置
manage-not-a-number = { $field }：“{ $value }”不是整数
manage-settings-saved = 设置已保存。
manage-refused-started = 已有 { $n } 场对局开始：时限和资源限制保持对局时的设置
