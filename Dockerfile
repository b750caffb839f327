# One klaverjas node: `docker build -t klaverjas .`, then see docker-compose.yml for a
# cluster of two behind nginx.  Settings are the KLAVERJAS_* variables (README).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /src
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY server ./server
COPY client ./client
COPY commands ./commands
RUN pip install . \
    && rm -rf /src \
    && useradd --system --create-home --home-dir /data klaverjas

# Without KLAVERJAS_DATABASE_URL the node keeps its SQLite file in /data.
USER klaverjas
WORKDIR /data
EXPOSE 8765
CMD ["klaverjas", "serve", "--host", "0.0.0.0", "--port", "8765"]
