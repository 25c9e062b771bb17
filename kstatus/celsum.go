package kstatus

import (
	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
)

// sumFunction gives rules list.sum(), as Kubernetes' own CEL list library does (CRD
// validation rules have it): the total of a list of numbers, an int when every element is
// an int, else a double; 0 for an empty list. Rules need it to compare a count the
// operator reports with the counts of a spec's parts, such as an Elasticsearch's
// availableNodes with the sum of its nodeSets' count.
var sumFunction = cel.Function("sum",
	cel.MemberOverload("list_sum", []*cel.Type{cel.ListType(cel.DynType)}, cel.DynType,
		cel.UnaryBinding(sumList)))

func sumList(v ref.Val) ref.Val {
	l, ok := v.(traits.Lister)
	if !ok {
		return types.NewErr("sum: want a list, got %s", v.Type().TypeName())
	}
	var ints int64
	var doubles float64
	isDouble := false
	it := l.Iterator()
	for it.HasNext() == types.True {
		switch x := it.Next().(type) {
		case types.Int:
			ints += int64(x)
		case types.Uint:
			ints += int64(x)
		case types.Double:
			doubles += float64(x)
			isDouble = true
		default:
			return types.NewErr("sum: want numbers, got %s", x.Type().TypeName())
		}
	}
	if isDouble {
		return types.Double(doubles + float64(ints))
	}
	return types.Int(ints)
}
