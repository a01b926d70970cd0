//! The Kubernetes manifests in `deploy/k8s/` agree with each other, with the image
//! (`deploy/Dockerfile`) and with what the programs expect.
//!
//! `scripts/test` validates every manifest against Kubernetes' own schemas
//! (`kubernetes-validate`); this test checks what a schema cannot: that `kustomization.yaml`
//! lists every manifest, the kinds and names, that every container runs the one image with a
//! `croupier` subcommand at the paths the Dockerfile installs, that the server's probes and
//! ports match its settings, that only the worker is privileged (and mounts the sandbox's state
//! directory), and that the workers' HPA scales the worker Deployment on a metric the Prometheus
//! adapter's rules define. (`tests/e2e/ops.rs` checks that the server exports the metrics those
//! rules query.)

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_norway::Value;

use croupier_tests::repo_root;

fn k8s_dir() -> PathBuf {
    repo_root().join("deploy/k8s")
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every document of a YAML file.
fn documents(path: &Path) -> Vec<Value> {
    serde_norway::Deserializer::from_str(&read(path))
        .map(|doc| Value::deserialize(doc).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
        .filter(|v| !v.is_null())
        .collect()
}

fn kustomization() -> Value {
    documents(&k8s_dir().join("kustomization.yaml")).remove(0)
}

/// The objects of every resource `kustomization.yaml` lists, by `Kind/name`.
fn objects() -> BTreeMap<String, Value> {
    let mut out = BTreeMap::new();
    for file in resources() {
        for doc in documents(&k8s_dir().join(&file)) {
            let key = format!("{}/{}", s(&doc["kind"]), s(&doc["metadata"]["name"]));
            assert!(out.insert(key.clone(), doc).is_none(), "{key} twice");
        }
    }
    out
}

fn resources() -> Vec<String> {
    kustomization()["resources"]
        .as_sequence()
        .expect("resources")
        .iter()
        .map(|r| s(r).to_owned())
        .collect()
}

fn s(v: &Value) -> &str {
    v.as_str().unwrap_or_else(|| panic!("not a string: {v:?}"))
}

fn object<'a>(all: &'a BTreeMap<String, Value>, key: &str) -> &'a Value {
    all.get(key).unwrap_or_else(|| panic!("no {key}"))
}

/// The one container of a workload's pod template.
fn container(workload: &Value) -> &Value {
    let containers = workload["spec"]["template"]["spec"]["containers"]
        .as_sequence()
        .expect("containers");
    assert_eq!(containers.len(), 1, "{containers:?}");
    &containers[0]
}

/// The ConfigMap's value for `key`.
fn setting(all: &BTreeMap<String, Value>, key: &str) -> String {
    s(&object(all, "ConfigMap/croupier-config")["data"][key]).to_owned()
}

/// The port number at the end of an address (`0.0.0.0:8080`).
fn port_of(address: &str) -> u64 {
    address.rsplit(':').next().unwrap().parse().unwrap()
}

#[test]
fn the_kustomization_lists_every_manifest_and_nothing_else() {
    let listed = resources();
    let mut present: Vec<String> = fs::read_dir(k8s_dir())
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.path().is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".yaml") && n != "kustomization.yaml" && n != "ingress.yaml")
        .collect();
    present.sort();
    let mut sorted = listed.clone();
    sorted.sort();
    assert_eq!(
        sorted, present,
        "kustomization.yaml's resources vs the files"
    );
}

#[test]
fn the_manifests_hold_the_expected_objects() {
    let all = objects();
    let kinds: Vec<&str> = all.keys().map(String::as_str).collect();
    assert_eq!(
        kinds,
        [
            "ConfigMap/croupier-config",
            "Deployment/croupier-server",
            "Deployment/croupier-worker",
            "HorizontalPodAutoscaler/croupier-worker",
            "Job/croupier-migrate",
            "Namespace/croupier",
            "NetworkPolicy/croupier-server",
            "Secret/croupier-secrets",
            "Service/croupier-server",
        ]
    );
    assert_eq!(s(&kustomization()["namespace"]), "croupier");
    // The Secret's values are placeholders an operator must replace.
    let secret = &object(&all, "Secret/croupier-secrets")["stringData"];
    for key in ["DATABASE_URL", "CROUPIER_METRICS_TOKEN"] {
        assert!(s(&secret[key]).contains("REPLACE_ME"), "{key}");
    }
}

#[test]
fn every_container_runs_the_image_with_a_croupier_subcommand() {
    let all = objects();
    let dockerfile = read(&repo_root().join("deploy/Dockerfile"));
    let images = kustomization()["images"].as_sequence().unwrap().clone();
    assert_eq!(images.len(), 1);
    let image = s(&images[0]["name"]);
    let workloads = [
        ("Deployment/croupier-server", "serve"),
        ("Job/croupier-migrate", "migrate"),
        ("Deployment/croupier-worker", "work"),
    ];
    for (key, subcommand) in workloads {
        let c = container(object(&all, key));
        assert_eq!(s(&c["image"]), image, "{key}");
        match c["command"].as_sequence() {
            // The image's entry point (tini -- croupier) with the subcommand as its argument.
            None => assert_eq!(c["args"], Value::from(vec![subcommand]), "{key}"),
            // The worker's own command: tini, then a shell that ends in `exec croupier work`.
            Some(command) => {
                assert_eq!(s(&command[0]), "/usr/bin/tini", "{key}");
                let script = s(command.last().unwrap());
                let last = script.lines().last().unwrap().trim();
                assert_eq!(last, format!("exec /usr/local/bin/croupier {subcommand}"));
            }
        }
    }
    for path in ["/usr/bin/tini", "/usr/local/bin/"] {
        assert!(dockerfile.contains(path), "the Dockerfile has no {path}");
    }
    assert!(dockerfile.contains("/out/croupier-sandbox-init /usr/local/bin/"));
}

#[test]
fn the_server_is_probed_on_healthz_at_its_web_port() {
    let all = objects();
    let server = object(&all, "Deployment/croupier-server");
    let c = container(server);
    let ports: BTreeMap<&str, u64> = c["ports"]
        .as_sequence()
        .unwrap()
        .iter()
        .map(|p| (s(&p["name"]), p["containerPort"].as_u64().unwrap()))
        .collect();
    assert_eq!(ports["http"], port_of(&setting(&all, "CROUPIER_BIND")));
    assert_eq!(
        ports["metrics"],
        port_of(&setting(&all, "CROUPIER_METRICS_BIND"))
    );
    for probe in ["startupProbe", "readinessProbe", "livenessProbe"] {
        assert_eq!(s(&c[probe]["httpGet"]["path"]), "/healthz", "{probe}");
        assert_eq!(s(&c[probe]["httpGet"]["port"]), "http", "{probe}");
    }
    let annotations = &server["spec"]["template"]["metadata"]["annotations"];
    assert_eq!(
        s(&annotations["prometheus.io/port"]),
        ports["metrics"].to_string()
    );
    assert_eq!(s(&annotations["prometheus.io/path"]), "/metrics");
    assert_eq!(server["spec"]["replicas"].as_u64(), Some(2));
    let service = object(&all, "Service/croupier-server");
    assert_eq!(
        service["spec"]["selector"],
        server["spec"]["selector"]["matchLabels"]
    );
    assert_eq!(s(&service["spec"]["ports"][0]["targetPort"]), "http");
    let policy = &object(&all, "NetworkPolicy/croupier-server")["spec"]["ingress"];
    assert_eq!(policy[0]["ports"][0]["port"].as_u64(), Some(ports["http"]));
    assert_eq!(
        policy[1]["ports"][0]["port"].as_u64(),
        Some(ports["metrics"])
    );
}

#[test]
fn only_the_worker_is_privileged() {
    let all = objects();
    for key in ["Deployment/croupier-server", "Job/croupier-migrate"] {
        let workload = object(&all, key);
        let pod = &workload["spec"]["template"]["spec"]["securityContext"];
        assert_eq!(pod["runAsNonRoot"].as_bool(), Some(true), "{key}");
        assert_ne!(pod["runAsUser"].as_u64(), Some(0), "{key}");
        let c = &container(workload)["securityContext"];
        assert_eq!(c["privileged"], Value::Null, "{key}");
        assert_eq!(
            c["allowPrivilegeEscalation"].as_bool(),
            Some(false),
            "{key}"
        );
        assert_eq!(c["readOnlyRootFilesystem"].as_bool(), Some(true), "{key}");
        assert_eq!(c["capabilities"]["drop"], Value::from(vec!["ALL"]), "{key}");
    }
    let worker = object(&all, "Deployment/croupier-worker");
    let pod = &worker["spec"]["template"]["spec"];
    let c = container(worker);
    // Namespaces, mounts, cgroup writes and per-slot uids: root in a privileged container.
    assert_eq!(c["securityContext"]["privileged"].as_bool(), Some(true));
    assert_eq!(c["securityContext"]["runAsUser"].as_u64(), Some(0));
    // The sandbox's state directory (slot locks, seat dirs) is the node's, shared by its pods.
    let mounts = c["volumeMounts"].as_sequence().unwrap();
    let state = mounts
        .iter()
        .find(|m| s(&m["mountPath"]) == "/run/croupier")
        .expect("/run/croupier mounted");
    let volume = pod["volumes"]
        .as_sequence()
        .unwrap()
        .iter()
        .find(|v| v["name"] == state["name"])
        .unwrap();
    assert_eq!(s(&volume["hostPath"]["path"]), "/run/croupier");
    // Running jobs get their shutdown grace before the kill.
    let grace: u64 = setting(&all, "CROUPIER_SHUTDOWN_GRACE").parse().unwrap();
    assert!(pod["terminationGracePeriodSeconds"].as_u64().unwrap() > grace);
}

#[test]
fn the_worker_autoscaler_scales_the_workers_on_the_adapters_metric() {
    let all = objects();
    let hpa = &object(&all, "HorizontalPodAutoscaler/croupier-worker")["spec"];
    assert_eq!(s(&hpa["scaleTargetRef"]["kind"]), "Deployment");
    assert!(all.contains_key(&format!("Deployment/{}", s(&hpa["scaleTargetRef"]["name"]))));
    let metric = &hpa["metrics"][0];
    assert_eq!(s(&metric["type"]), "External");
    let name = s(&metric["external"]["metric"]["name"]);
    // One job per worker loop of each pod.
    assert_eq!(
        s(&metric["external"]["target"]["averageValue"]),
        setting(&all, "CROUPIER_WORKERS")
    );
    let values = documents(&k8s_dir().join("prometheus-adapter/values.yaml")).remove(0);
    let rules: Vec<&str> = values["rules"]["external"]
        .as_sequence()
        .unwrap()
        .iter()
        .map(|r| s(&r["name"]["as"]))
        .collect();
    assert!(rules.contains(&name), "{name} is not among {rules:?}");
}

#[test]
fn the_ingress_example_points_at_the_server_service() {
    let ingress = documents(&k8s_dir().join("ingress.yaml")).remove(0);
    let backend = &ingress["spec"]["rules"][0]["http"]["paths"][0]["backend"]["service"];
    let all = objects();
    let service = object(&all, &format!("Service/{}", s(&backend["name"])));
    assert_eq!(service["spec"]["ports"][0]["name"], backend["port"]["name"]);
}
