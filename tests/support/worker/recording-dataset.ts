/**
 * An Analytics Engine dataset (a VITALS binding) that keeps every data point written to it, in
 * order, for a test to read back; a call without a point records an empty one.
 */
export function recordingDataset() {
  const points: AnalyticsEngineDataPoint[] = []
  const dataset: AnalyticsEngineDataset = {
    writeDataPoint: (point) => void points.push(point ?? {}),
  }
  return { points, dataset }
}
