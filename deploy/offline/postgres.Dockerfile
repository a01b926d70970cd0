# A stand-in for the official `postgres:15` image, for machines that cannot pull it
# (scripts/deploy-test builds it when no `postgres:15` is present): Debian 12's PostgreSQL 15
# behind an entry point that honours the same settings docker-compose.yml and
# deploy/offline/k8s-postgres.yaml use (POSTGRES_USER, POSTGRES_PASSWORD, POSTGRES_DB, PGDATA),
# so they run unchanged on either image.
FROM debian:bookworm-slim
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends postgresql-15 \
 && rm -rf /var/lib/apt/lists/*
ENV PATH=/usr/lib/postgresql/15/bin:$PATH PGDATA=/var/lib/postgresql/data
COPY deploy/offline/postgres-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
ENTRYPOINT ["/usr/local/bin/docker-entrypoint.sh"]
# PostgreSQL's "fast shutdown": the official image stops the same way.
STOPSIGNAL SIGINT
EXPOSE 5432
CMD ["postgres"]
