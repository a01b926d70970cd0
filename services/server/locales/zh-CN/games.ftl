# 游戏页面：/games 与 /games/{id}，以及各处显示的游戏名称。

## 五个游戏的名称（`game-name-<id>`）与机器人的连接方式（`game-protocol-<id>`）。
game-name-nothanks = 不，谢谢！（No Thanks!）
game-name-splendor = 璀璨宝石（Splendor）
game-name-hanabi = 花火（Hanabi）
game-name-guandan = 掼蛋
game-name-bridge = 桥牌
game-protocol-nothanks = TCP 大厅，127.0.0.1:1000 / 2004，每行一个 JSON 对象
game-protocol-splendor = 每步一个进程：状态 JSON 在 argv[1] 和标准输入中，动作 JSON 写到标准输出
game-protocol-hanabi = websocket，127.0.0.1:9999，每个座位一个进程；或一个 Python `player` 类
game-protocol-guandan = websocket，127.0.0.1:23456/game/…，每个座位一个进程（平台 v1006）
game-protocol-bridge = 每步一个进程：`bot Board.txt StepLog.txt`，追加一行

## /games
games-title = 游戏
games-intro = 每个游戏都来自各自的机器人平台，为原平台编写的机器人无需修改即可在这里运行。每个游戏的页面列出它在本平台上的规则、带示例消息的协议、各项限制、排行榜的排名方式，以及可下载的入门套件。
games-seats-protocol = { $n } 个座位 · { $protocol }

## /games/{id}
game-quick-start = 快速上手
game-step-download = 下载下面的入门套件并解压。
game-step-play-before = 在你自己的电脑上用
game-step-play-middle = 命令让它与内置机器人对战（只有一个文件，不需要 Rust：
game-step-play-link = 下载本地运行器
game-step-play-after = ）
game-step-play-colon = ：
game-step-play-stop = 。
game-step-upload-before = 改进它，然后在你的队伍页面上传（或用
game-step-upload-after = ）。上传后它先与内置机器人进行一局简短的对局，通过检查后才能参加比赛。
game-kits = 入门套件
game-no-kit = 暂无套件。
game-kit-files = { $n ->
   *[other] { $n } 个文件
}
game-on-this-platform = 在本平台上
game-settings = 设置
game-what = 项目
game-here = 本平台
game-rules = 规则
game-protocol = 协议

## 设置表
game-fact-seats = 座位数
game-fact-rule-sets = 规则集
game-fact-connect = 机器人如何连接
game-fact-move-time = 每步时限
game-fact-move-time-value = { $secs } 秒（墙钟时间，含启动时间；比赛可另行设置）
game-fact-games = 每场比赛的局数
game-fact-games-value = 默认 { $n } 局
game-fact-games-value-max = 默认 { $n } 局（比赛最多可设为 { $max } 局）
game-fact-limits = 每个座位的内存、CPU、磁盘
game-fact-limits-value = 整个进程树 512 MiB 内存，一个 CPU 核心，机器人文件之外 64 MiB 磁盘（默认值；比赛可另行设置）
game-fact-bots = 内置机器人

## 规则与协议取自 docs/（中文取自 docs/zh-CN/）：表格给读屏软件的标签。
game-doc-table = 文档中的表格 { $n }
