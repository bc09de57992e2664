//go:build !(openblas && cgo)

package blas

const wantBackend = PureGo
