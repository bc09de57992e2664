package experiments

import "github.com/fastkernels/kernellab/lab/run"

// Registry returns every registered experiment, validated, in catalogue order.
func Registry() (*run.Registry, error) {
	return run.NewRegistry(
		fig2_1(),
		fig3_1(),
		table3_1(),
		fig3_2(),
		fig3_3(),
		fig3_4(),
		fig3_5(),
		table4_1(),
		fig4_2(),
		fig4_3(),
		fig4_4(),
		fig4_5(),
		fig5_1(),
		table6_1(),
		fig6_1(),
		fig6_2(),
		fig6_3(),
		fig6_4(),
		fig6_5(),
		fig6_6(),
		perrinFig1(),
		perrinFig2(),
		perrinFig3(),
		notesFigRFF(),
		notesFigNystrom(),
		lectureFigRFF(),
		lectureFigKPCA(),
		slidesTable1(),
		slidesFig1(),
		slidesFig2(),
		slidesTable2(),
		slidesTable3(),
	)
}
