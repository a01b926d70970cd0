//! The command line's errors and help.

use super::process::croupier;

fn stderr_of(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn croupier_serve_without_database_url_fails_naming_the_variable() {
    // Act
    let output = croupier()
        .arg("serve")
        .arg("--bind")
        .arg("127.0.0.1:0")
        .output()
        .expect("run croupier");

    // Assert
    assert!(
        !output.status.success(),
        "serve without a database should fail"
    );
    let stderr = stderr_of(&output);
    assert!(
        stderr.contains("DATABASE_URL"),
        "the error does not name DATABASE_URL:\n{stderr}"
    );
}

#[test]
fn croupier_up_with_a_nonsense_bind_address_names_the_flag_and_the_variable() {
    // Arrange
    let dir = tempfile::tempdir().expect("tempdir");

    // Act
    let output = croupier()
        .args(["up", "--bind", "nonsense", "--data-dir"])
        .arg(dir.path().join("data"))
        .output()
        .expect("run croupier");

    // Assert
    assert!(!output.status.success());
    let stderr = stderr_of(&output);
    for needle in ["--bind", "CROUPIER_BIND", "nonsense"] {
        assert!(
            stderr.contains(needle),
            "the error does not mention {needle}:\n{stderr}"
        );
    }
    assert!(
        !dir.path().join("data").join("postgres").exists(),
        "no cluster is made for a bad flag"
    );
}

#[test]
fn the_help_of_croupier_and_of_every_subcommand_exits_0() {
    let commands: [&[&str]; 16] = [
        &[],
        &["up"],
        &["serve"],
        &["migrate"],
        &["db"],
        &["admin"],
        &["admin", "create-user"],
        &["admin", "make-admin"],
        &["submit"],
        &["login"],
        &["submissions"],
        &["matches"],
        &["replay"],
        &["logs"],
        &["leaderboard"],
        &["challenge"],
    ];
    for args in commands {
        // Act
        let output = croupier()
            .args(args)
            .arg("--help")
            .output()
            .expect("run croupier");

        // Assert
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            output.status.success(),
            "croupier {args:?} --help failed:\n{}",
            stderr_of(&output)
        );
        assert!(
            stdout.contains("Usage:"),
            "croupier {args:?} --help printed no usage:\n{stdout}"
        );
    }
}
