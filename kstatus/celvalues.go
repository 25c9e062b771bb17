package kstatus

import (
	"errors"
	"reflect"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
)

// objectMap and objectList are how a rule sees the maps and lists of an object: CEL
// values over the decoded JSON, read in place. cel-go's own wrappers
// (types.NewStringInterfaceMap, types.NewDynamicList) cost two or three allocations and a
// reflect.Value each time a rule reads a map or a list, and a rule reads status.conditions
// and each of its entries once per comprehension: most of what a rule cost went there
// (BenchmarkComputeRule). objectMap is a map type, so boxing it in a ref.Val allocates
// nothing; objectList is one small allocation and indexes its slice directly.
//
// Only the hot methods are written here: reading a key, testing one, indexing, iterating
// and sizes. The others (equality, conversion, list concatenation, formatting) build
// cel-go's own wrapper on the spot and delegate, so that they behave exactly as cel-go's
// values do.

// objectMap is a JSON object (map[string]any) as a CEL map.
type objectMap map[string]any

var (
	_ traits.Mapper = objectMap(nil)
	_ traits.Zeroer = objectMap(nil)
	_ traits.Lister = (*objectList)(nil)
	_ traits.Zeroer = (*objectList)(nil)
)

func (m objectMap) base() traits.Mapper { return types.NewStringInterfaceMap(celAdapter, m) }

func (m objectMap) ConvertToNative(t reflect.Type) (any, error) { return m.base().ConvertToNative(t) }
func (m objectMap) ConvertToType(t ref.Type) ref.Val            { return m.base().ConvertToType(t) }
func (m objectMap) Equal(other ref.Val) ref.Val                 { return m.base().Equal(other) }
func (m objectMap) Type() ref.Type                              { return types.MapType }
func (m objectMap) Value() any                                  { return map[string]any(m) }
func (m objectMap) Iterator() traits.Iterator                   { return m.base().Iterator() }
func (m objectMap) Size() ref.Val                               { return types.Int(len(m)) }
func (m objectMap) IsZeroValue() bool                           { return len(m) == 0 }
func (m objectMap) String() string                              { return m.base().(interface{ String() string }).String() }

// Find is the value at key, converted as it is read. A key that is not a string is never
// in the map, as for cel-go's map of string keys.
func (m objectMap) Find(key ref.Val) (ref.Val, bool) {
	s, ok := key.(types.String)
	if !ok {
		return nil, false
	}
	v, found := m[string(s)]
	if !found {
		return nil, false
	}
	return celAdapter.NativeToValue(v), true
}

func (m objectMap) Contains(key ref.Val) ref.Val {
	_, found := m.Find(key)
	return types.Bool(found)
}

func (m objectMap) Get(key ref.Val) ref.Val {
	v, found := m.Find(key)
	if !found {
		return types.ValOrErr(v, "no such key: %v", key)
	}
	return v
}

// objectList is a JSON array ([]any) as a CEL list.
type objectList struct{ items []any }

func (l *objectList) base() traits.Lister { return types.NewDynamicList(celAdapter, l.items) }

func (l *objectList) Add(other ref.Val) ref.Val                   { return l.base().Add(other) }
func (l *objectList) Contains(elem ref.Val) ref.Val               { return l.base().Contains(elem) }
func (l *objectList) ConvertToNative(t reflect.Type) (any, error) { return l.base().ConvertToNative(t) }
func (l *objectList) ConvertToType(t ref.Type) ref.Val            { return l.base().ConvertToType(t) }
func (l *objectList) Equal(other ref.Val) ref.Val                 { return l.base().Equal(other) }
func (l *objectList) Type() ref.Type                              { return types.ListType }
func (l *objectList) Value() any                                  { return l.items }
func (l *objectList) Size() ref.Val                               { return types.Int(len(l.items)) }
func (l *objectList) IsZeroValue() bool                           { return len(l.items) == 0 }
func (l *objectList) String() string                              { return l.base().(interface{ String() string }).String() }

func (l *objectList) Get(index ref.Val) ref.Val {
	i, err := types.IndexOrError(index)
	if err != nil {
		return types.ValOrErr(index, "%v", err)
	}
	if i < 0 || i >= len(l.items) {
		return types.NewErr("index '%d' out of range in list size '%d'", i, len(l.items))
	}
	return celAdapter.NativeToValue(l.items[i])
}

func (l *objectList) Iterator() traits.Iterator { return &objectListIterator{items: l.items} }

// objectListIterator walks an objectList for a comprehension.
type objectListIterator struct {
	items []any
	next  int
}

func (it *objectListIterator) HasNext() ref.Val { return types.Bool(it.next < len(it.items)) }

func (it *objectListIterator) Next() ref.Val {
	if it.next >= len(it.items) {
		return nil
	}
	v := it.items[it.next]
	it.next++
	return celAdapter.NativeToValue(v)
}

// An iterator is not a value a rule can use; these say so, as cel-go's iterators do.
func (it *objectListIterator) ConvertToNative(reflect.Type) (any, error) {
	return nil, errors.New("type conversion on iterators not supported")
}
func (it *objectListIterator) ConvertToType(ref.Type) ref.Val {
	return types.NewErr("no such overload")
}
func (it *objectListIterator) Equal(ref.Val) ref.Val { return types.NewErr("no such overload") }
func (it *objectListIterator) Type() ref.Type        { return types.IteratorType }
func (it *objectListIterator) Value() any            { return nil }

// commonStrings are CEL values made once for the words rules compare most: condition
// statuses and types and common phases. Boxing a string in a ref.Val allocates, and a rule
// reads c.type and c.status of each condition once per comprehension; these reads then
// allocate nothing. Longer strings (messages, reasons) are not looked up at all.
var commonStrings = func() map[string]ref.Val {
	m := map[string]ref.Val{}
	for _, s := range []string{
		"True", "False", "Unknown",
		"Ready", "Reconciling", "Stalled", "Available", "Progressing", "Degraded", "Synced",
		"Succeeded", "Failed", "Complete", "Healthy", "Established", "Accepted", "Programmed",
		"ResolvedRefs", "Suspended", "Paused",
		"Pending", "Running", "Error", "Terminating",
	} {
		m[s] = types.String(s)
		maxCommonString = max(maxCommonString, len(s))
	}
	return m
}()

var maxCommonString int
