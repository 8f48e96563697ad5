#!/usr/bin/env bash
# Installs MariaDB's server binaries (Debian's mariadb-server package) for the MySQL source tests,
# which start their own private server (test/support/mariadb.ts) and never rely on the system
# service. Idempotent: does nothing when `mariadbd` or `mysqld` is already installed. A failed
# install only prints a warning: the MySQL tests then fail with a message pointing here.
set -uo pipefail

has_server() {
  command -v mariadbd >/dev/null 2>&1 || command -v mysqld >/dev/null 2>&1 \
    || [ -x /usr/sbin/mariadbd ] || [ -x /usr/sbin/mysqld ]
}

if has_server; then
  echo "== MariaDB já instalado ($( (command -v mariadbd || command -v mysqld || echo /usr/sbin/mariadbd) 2>/dev/null))"
  exit 0
fi

echo "== apt-get install mariadb-server (testes da fonte MySQL)"
if [ "$(id -u)" = "0" ]; then SUDO=""; else SUDO="sudo"; fi
# The package may try to start the system service; in a container that is refused or fails,
# which is fine: the tests start their own server.
if $SUDO apt-get update -qq \
  && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq mariadb-server >/dev/null \
  && has_server; then
  echo "== MariaDB instalado"
else
  echo "aviso: não foi possível instalar o MariaDB (mariadb-server); os testes da fonte MySQL vão falhar"
fi
exit 0
