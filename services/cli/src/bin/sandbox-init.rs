//! pid 1 of every sandbox (the same init as `croupier-sandbox-init`), built with the CLI so its
//! tests find one; see `croupier_sandbox::init`.

fn main() {
    croupier_sandbox::init::main()
}
