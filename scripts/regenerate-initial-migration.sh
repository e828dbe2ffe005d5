#!/usr/bin/env bash
# Development helper, used only until the first migration lands: regenerates the initial migration
# from the entities. Serialised with flock so that two people regenerating at once do not collide.
set -euo pipefail
cd "$(dirname "$0")/.."
exec 9>/tmp/gatehouse-migration.lock
flock 9
db=gatehouse_regen_$$
psql -q -h 127.0.0.1 -U postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
trap 'psql -q -h 127.0.0.1 -U postgres -c "DROP DATABASE IF EXISTS $db WITH (FORCE)"' EXIT
rm -f migrations/*-Initial.ts
echo "export const MIGRATIONS = [];" > migrations/index.ts
npm run build --silent
DATABASE_URL=postgres://postgres@127.0.0.1:5432/$db npx typeorm migration:generate -d dist/libs/schema/src/data-source.js migrations/Initial >/dev/null
file=$(ls migrations | grep -- '-Initial.ts$')
class=$(grep -o 'class [A-Za-z0-9]*' "migrations/$file" | cut -d' ' -f2)
cat > migrations/index.ts <<TS
import { $class } from './${file%.ts}.js';

/** Every migration, in order. Listed explicitly: a glob would load some files twice. */
export const MIGRATIONS = [$class];
TS
npx prettier --write "migrations/$file" >/dev/null 2>&1 || true
npm run build --silent
DATABASE_URL=postgres://postgres@127.0.0.1:5432/$db npx typeorm migration:run -d dist/libs/schema/src/data-source.js >/dev/null
DATABASE_URL=postgres://postgres@127.0.0.1:5432/$db npx typeorm migration:generate -d dist/libs/schema/src/data-source.js --check migrations/Drift >/dev/null
echo "regenerated migrations/$file"
