//! pid 1 of every sandbox; see `croupier_sandbox::init`.

fn main() {
    croupier_sandbox::init::main()
}
