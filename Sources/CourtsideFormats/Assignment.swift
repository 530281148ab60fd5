/// The cheapest way to give each row of a square cost matrix its own column (the Hungarian
/// method, O(n³)): `result[row]` is the row's column.
func cheapestAssignment(_ cost: [[Int]]) -> [Int] {
    let n = cost.count
    guard n > 0 else { return [] }
    // Potentials u (rows) and v (columns), 1-based with column 0 as the free start; way[j] is
    // the column before j on the augmenting path; owner[j] the row column j is given to.
    var u = Array(repeating: 0, count: n + 1)
    var v = Array(repeating: 0, count: n + 1)
    var owner = Array(repeating: 0, count: n + 1)
    var way = Array(repeating: 0, count: n + 1)
    for row in 1...n {
        owner[0] = row
        var column = 0
        var least = Array(repeating: Int.max, count: n + 1)
        var used = Array(repeating: false, count: n + 1)
        repeat {
            used[column] = true
            let current = owner[column]
            var delta = Int.max
            var nextColumn = 0
            for j in 1...n where !used[j] {
                let reduced = cost[current - 1][j - 1] - u[current] - v[j]
                if reduced < least[j] {
                    least[j] = reduced
                    way[j] = column
                }
                if least[j] < delta {
                    delta = least[j]
                    nextColumn = j
                }
            }
            for j in 0...n {
                if used[j] {
                    u[owner[j]] += delta
                    v[j] -= delta
                } else {
                    least[j] -= delta
                }
            }
            column = nextColumn
        } while owner[column] != 0
        repeat {
            let previous = way[column]
            owner[column] = owner[previous]
            column = previous
        } while column != 0
    }
    var result = Array(repeating: 0, count: n)
    for j in 1...n where owner[j] != 0 { result[owner[j] - 1] = j - 1 }
    return result
}
