package kernel
import ("testing";"fmt";"math/rand/v2";"gonum.org/v1/gonum/blas";"gonum.org/v1/gonum/blas/blas64")
func BenchmarkZZGemm(b *testing.B){
  rng:=rand.New(rand.NewPCG(1,1))
  for _, rows := range []int{64,256,1024,4096,100000} {
  a:=make([]float64,rows*54); for i:=range a {a[i]=rng.Float64()}
  bt:=make([]float64,54*500); for i:=range bt {bt[i]=rng.Float64()}
  c:=make([]float64,rows*500)
  for _, tr := range []bool{false,true} {
  b.Run(fmt.Sprint(rows, tr), func(b *testing.B){
   for b.Loop(){ if tr { blas64.Gemm(blas.NoTrans, blas.Trans,1,blas64.General{Rows:rows,Cols:54,Stride:54,Data:a},blas64.General{Rows:500,Cols:54,Stride:54,Data:bt},0,blas64.General{Rows:rows,Cols:500,Stride:500,Data:c}) } else {
     blas64.Gemm(blas.NoTrans, blas.NoTrans,1,blas64.General{Rows:rows,Cols:54,Stride:54,Data:a},blas64.General{Rows:54,Cols:500,Stride:500,Data:bt},0,blas64.General{Rows:rows,Cols:500,Stride:500,Data:c})}}
   b.ReportMetric(2*float64(rows)*500*54*float64(b.N)/b.Elapsed().Seconds()/1e9,"GFLOP/s")
  })}}
}
