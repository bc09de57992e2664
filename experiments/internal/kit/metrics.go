package kit

const MetricAccuracy = "accuracy"

const MetricMSE = "mse"

const MetricSeconds = "seconds"
