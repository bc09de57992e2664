//go:build !(openblas && cgo)

package blasbackend

const wantBackend = PureGo
