# /download：给机器人作者的本地运行器（静态的 `croupier` 可执行文件及其 wheel）。
download-title = 下载本地运行器
download-intro =
    croupier 命令在你自己的电脑上让你的机器人与内置机器人对战，使用与本平台相同的裁判、协议和规则，
    也能在终端里使用本平台。它只是一个文件：不需要 Rust、不需要编译器，也无需安装其他东西。
download-binary = Linux x86-64：一个静态可执行文件
download-binary-how = 它可在任何 x86-64 的 Linux 上运行（不依赖任何库，连 C 库也不需要）。校验它、加上执行权限并放进 PATH：
download-not-built = 本平台还没有构建运行器：请平台的组织者在平台的仓库中运行
download-not-configured = 本平台还没有提供运行器下载：组织者需要先构建它，并用 CROUPIER_DOWNLOADS_DIR（或 --downloads-dir）指定所在目录，在平台的仓库中运行：
download-from-source = 在此之前，如果你有 Rust 工具链，可以在平台的仓库中从源码安装：
download-wheel = 用 pip 安装：装在 Python wheel 里的同一个可执行文件
download-wheel-how = 安装这个 wheel 会把 croupier 放进该 Python 环境的 PATH（Python 3.8 或更新，Linux x86-64）：
download-wheel-missing = 本平台还没有构建 wheel（scripts/build-runner 会与可执行文件一起构建它）。
download-play = 运行入门套件
download-play-how = 下载某个游戏的入门套件，解压后让它与内置机器人对战：
download-sandbox =
    以 root 身份运行（并装有 bubblewrap）时，croupier play 会把每个机器人放进与本平台相同的沙箱。
    以其他用户运行时，它用 --sandbox none 把机器人作为普通进程运行并明确提示：机器人没有被隔离，
    只运行你信任的代码。各游戏的套件：
download-client = 在终端里使用本平台
download-client-how = 登录一次（令牌保存在你的配置目录 ~/.config/croupier 中），之后就可以上传机器人、查看你的对局、下载回放和你的机器人日志、查看排行榜以及发起挑战：
