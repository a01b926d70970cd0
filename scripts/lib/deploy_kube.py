#!/usr/bin/env python3
"""Prepares deploy/k8s for `podman kube play` (scripts/deploy-test), making the edits
deploy/README.md asks of an organiser and the ones podman needs in place of a cluster:

  deploy_kube.py OUT DATABASE_URL POSTGRES_PASSWORD

writes to OUT:
* config.yaml: the ConfigMap, unchanged (passed with --configmap);
* secret.json, postgres-secret.json: the Secrets' values as podman's `podman secret create` takes
  them for secretKeyRef (a JSON object of base64 values): secret.yaml's keys with a real
  DATABASE_URL and metrics token, as README's "Before applying" says;
* postgres.yaml: deploy/offline/k8s-postgres.yaml;
* migrate.yaml: the migration Job's pod template as a Pod (podman plays no Jobs);
* server.yaml, worker.yaml: the Deployments with the image kustomization.yaml's `images` would
  set (the locally built croupier:latest), three worker replicas (`kubectl scale`: without the
  autoscaler's adapter there is one), no `ports` (see for_podman); the Service and
  NetworkPolicy, which podman ignores, left out.
"""

import base64
import json
import secrets
import sys
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[2]
K8S = REPO / "deploy" / "k8s"
IMAGE = "localhost/croupier:latest"
WORKERS = 3


def docs(name):
    return [d for d in yaml.safe_load_all((K8S / name).read_text()) if d]


def for_podman(spec):
    """The pod spec with the image kustomization.yaml's `images` would set and, since podman
    4 publishes every containerPort on the host (Kubernetes publishes none: the Service does),
    which would make the second server replica fail on a port the first holds, without
    `ports`: the probes' named ports become their numbers."""
    for c in spec.get("containers", []) + spec.get("initContainers", []):
        if c["image"] == "croupier":
            c["image"] = IMAGE
        numbers = {p["name"]: p["containerPort"] for p in c.pop("ports", []) if "name" in p}
        for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
            get = c.get(probe, {}).get("httpGet")
            if get and get["port"] in numbers:
                get["port"] = numbers[get["port"]]
    return spec


def b64(text):
    return base64.b64encode(text.encode()).decode()


def main():
    out, database_url, pg_password = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
    out.mkdir(parents=True, exist_ok=True)
    (out / "config.yaml").write_text((K8S / "config.yaml").read_text())

    [secret] = docs("secret.yaml")
    values = dict(secret["stringData"])
    values["DATABASE_URL"] = database_url
    values["CROUPIER_METRICS_TOKEN"] = secrets.token_hex(24)
    (out / "secret.json").write_text(json.dumps({k: b64(v) for k, v in values.items()}))
    (out / "postgres-secret.json").write_text(json.dumps({"password": b64(pg_password)}))
    (out / "postgres.yaml").write_text((REPO / "deploy/offline/k8s-postgres.yaml").read_text())

    [job] = docs("migrate-job.yaml")
    pod = {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": job["metadata"]["name"], "labels": job["spec"]["template"]["metadata"]["labels"]},
        "spec": for_podman(job["spec"]["template"]["spec"]),
    }
    (out / "migrate.yaml").write_text(yaml.safe_dump(pod, sort_keys=False))

    for name in ("server", "worker"):
        [deployment] = [d for d in docs(f"{name}.yaml") if d["kind"] == "Deployment"]
        for_podman(deployment["spec"]["template"]["spec"])
        if name == "worker":
            deployment["spec"]["replicas"] = WORKERS
        (out / f"{name}.yaml").write_text(yaml.safe_dump(deployment, sort_keys=False))


if __name__ == "__main__":
    main()
