# The kernel lab: Go + OpenBLAS + Debian's Jupyter + the GoNB kernel, set up by reproduce.sh itself.
#
#   docker build -t kernellab .
#   docker run --rm -v "$PWD/results:/lab/results" kernellab                 # ./reproduce.sh (quick scale)
#   docker run --rm kernellab ./reproduce.sh test                            # the full check
#   docker run --rm -p 8888:8888 kernellab ./reproduce.sh notebook --ip=0.0.0.0 --no-browser
#
# With an offline copy of the data: -v /path/to/mirror:/mirror -e LAB_DATA_MIRROR=/mirror
FROM golang:1.26-bookworm

RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      jupyter-nbconvert python3-nbclient jupyter-client python3-ipykernel jupyter-notebook libopenblas-dev \
      chromium \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /lab
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# Same set-up steps as on a workstation: builds lab, gonb and goimports into .tools/bin and installs the
# GoNB kernel spec into .tools/jupyter.
RUN ./reproduce.sh setup
ENV PATH="/lab/.tools/bin:${PATH}"
CMD ["./reproduce.sh"]
