//! pid 1 of every sandbox (the same init as `croupier-sandbox-init`); see `croupier_sandbox::init`.

fn main() {
    croupier_sandbox::init::main()
}
