# One klaverjas node: `docker build -t klaverjas .`, then see docker-compose.yml for a
# cluster of two behind nginx.  Settings are the KLAVERJAS_* variables (README).
# The build stage compiles the solver's C inner loop (engine/_solver.c) into a wheel; the
# image itself carries no compiler.
FROM python:3.11-slim AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY server ./server
COPY client ./client
COPY commands ./commands
RUN pip wheel --no-deps --wheel-dir /wheels .

FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

COPY --from=build /wheels /wheels
RUN pip install /wheels/*.whl \
    && rm -rf /wheels \
    && useradd --system --create-home --home-dir /data klaverjas

# Without KLAVERJAS_DATABASE_URL the node keeps its SQLite file in /data.
USER klaverjas
WORKDIR /data
EXPOSE 8765
CMD ["klaverjas", "serve", "--host", "0.0.0.0", "--port", "8765"]
