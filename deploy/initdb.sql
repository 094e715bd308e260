-- Roles for docker-compose.yml (development credentials; change them for
-- anything else). Runs once, as the image's superuser, on an empty volume.
CREATE ROLE ragd_owner LOGIN PASSWORD 'ragd_owner' NOSUPERUSER NOBYPASSRLS CREATEDB;
CREATE ROLE ragd_app LOGIN PASSWORD 'ragd_app' NOSUPERUSER NOBYPASSRLS;
ALTER ROLE ragd_app SET plan_cache_mode = force_custom_plan;
CREATE DATABASE ragd OWNER ragd_owner;
\connect ragd
CREATE EXTENSION IF NOT EXISTS vector;
REVOKE ALL ON DATABASE ragd FROM PUBLIC;
GRANT CONNECT, TEMPORARY ON DATABASE ragd TO ragd_app;
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
ALTER SCHEMA public OWNER TO ragd_owner;
