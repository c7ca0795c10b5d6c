a = 1
a[fn() { a[fn() { a[fn() { a[fn() { a[fn() { a[fn() { a[fn() { a[fn() { a[fn() { a[fn() { a[fn() { a[fn() { a[fn() { a[fn() { a[fn() { a[fn() { a[fn() { a[fn() { a[fn() { a[fn() { a[fn() { a[fn() { a[fn() { a[fn() { a[fn() { a[fn() { a[fn() { a[fn() { a[fn() { a[fn() { 1 }] }] }] }] }] }] }] }] }] }] }] }] }] }] }] }] }] }] }] }] }] }] }] }] }] }] }] }] }] }]
