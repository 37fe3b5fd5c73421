#!/bin/bash
# The official Artemis image's start: on a first start, create an instance in the working
# directory with ARTEMIS_USER and ARTEMIS_PASSWORD (login required unless ANONYMOUS_LOGIN=true)
# and EXTRA_ARGS, then copy every file of ./etc-override over its etc; then run the broker.
set -euo pipefail
if [ ! -f ./etc/broker.xml ]; then
  login=--require-login
  [ "${ANONYMOUS_LOGIN,,}" = true ] && login=--allow-anonymous
  # shellcheck disable=SC2086 # EXTRA_ARGS holds several arguments, as in the official image
  /opt/activemq-artemis/bin/artemis create --user "$ARTEMIS_USER" --password "$ARTEMIS_PASSWORD" \
    --silent "$login" $EXTRA_ARGS .
  if [ -d ./etc-override ]; then
    for file in ./etc-override/*; do
      echo "stand-in artemis: etc-override: $(basename "$file")"
      cp "$file" ./etc/ || true
    done
  fi
else
  echo "stand-in artemis: the instance exists; not creating it again"
fi
exec ./bin/artemis "$@"
