//! Expressions: values, operators, subscripts (with the gpu's scalar guard), and calls of
//! built-ins and user functions.

use super::*;

impl Interpreter {
    /// Evaluated subscripts; index lists become arrays on `device` (the indexed array's).
    pub(super) fn subscripts(
        &mut self,
        subs: &[Subscript],
        device: Device,
        frame: &mut Frame,
    ) -> Result<Vec<index::Subscript>> {
        use crate::base::layout::AxisIndex;
        let mut out = Vec::with_capacity(subs.len());
        for sub in subs {
            out.push(match sub {
                Subscript::Index(e) => {
                    let v = self.eval(e, frame)?;
                    self.subscript_value(v, device)
                        .map_err(|er| er.at(e.span))?
                }
                Subscript::Slice { start, stop, step } => {
                    let mut part = |p: &Option<Expr>| -> Result<Option<i64>> {
                        match p {
                            None => Ok(None),
                            Some(e) => {
                                let v = self.eval(e, frame)?;
                                match v {
                                    Value::None => Ok(None),
                                    other => convert::index_int(&other)
                                        .map(Some)
                                        .map_err(|er| er.at(e.span)),
                                }
                            }
                        }
                    };
                    index::Subscript::Basic(AxisIndex::Range {
                        start: part(start)?,
                        stop: part(stop)?,
                        step: part(step)?,
                    })
                }
            });
        }
        Ok(out)
    }

    /// One evaluated `[...]` entry: a position, or an index array (mask or gather).
    pub(super) fn subscript_value(&mut self, v: Value, device: Device) -> Result<index::Subscript> {
        use crate::base::layout::AxisIndex;
        Ok(match v {
            Value::Array(a) if a.ndim() > 0 || a.dtype() == crate::base::DType::Bool => {
                index::Subscript::Array((*a).clone())
            }
            Value::List(_) => index::Subscript::Array(convert::to_array(self, &v, Some(device))?),
            Value::None => index::Subscript::Basic(AxisIndex::NewAxis),
            Value::Bool(b) => index::Subscript::Array(Array::from_vec(vec![b], vec![])),
            Value::Ellipsis => index::Subscript::Ellipsis,
            other => index::Subscript::Basic(AxisIndex::At(convert::index_int(&other)?)),
        })
    }

    pub(super) fn index_value(&mut self, a: &Array, subs: &[index::Subscript]) -> Result<Value> {
        if a.device() == Device::Gpu && reads_one_element(a, subs) {
            self.scalar_guard(Access::Read)?;
        }
        Ok(match index::get(a, subs)? {
            Selection::Scalar(s) => Value::from_scalar(s),
            Selection::Array(a) => Value::array(a),
        })
    }

    /// The scalar guard (LANGUAGE.md §5): an element of a gpu array is about to be read or
    /// written on its own, one device↔host copy.
    pub(super) fn scalar_guard(&mut self, access: Access) -> Result<()> {
        let (verb, copy) = match access {
            Access::Read => ("reads", "device→host"),
            Access::Write => ("writes", "host→device"),
        };
        let fix =
            format!("each element is a separate {copy} copy; move the array once with to(x, cpu)");
        match self.scalar_mode {
            ScalarMode::Allow => Ok(()),
            ScalarMode::Error => Err(Error::new(
                ErrorKind::Device,
                format!("scalar indexing of a gpu array is disallowed (:scalar error): {fix}"),
            )),
            ScalarMode::Warn if self.scalar_warned => Ok(()),
            ScalarMode::Warn => {
                self.scalar_warned = true;
                let place = self.statement.map_or(String::new(), |span| {
                    let line = self.sources.line_of(span);
                    let name = self
                        .sources
                        .get(span.source)
                        .map_or("", |s| s.name.as_str());
                    let text = self
                        .sources
                        .line_text(span.source, line)
                        .unwrap_or("")
                        .trim();
                    format!("{name}:{line}: `{text}`: ")
                });
                let text = format!(
                    "warning: {place}{verb} one element of a gpu array: {fix} (shown once; :scalar allow hides it, :scalar error forbids it)\n"
                );
                let text = if self.color {
                    use colored::Colorize;
                    text.yellow().to_string()
                } else {
                    text
                };
                self.write_err(&text);
                Ok(())
            }
        }
    }

    pub(super) fn eval(&mut self, expr: &Expr, frame: &mut Frame) -> Result<Value> {
        match &expr.kind {
            ExprKind::Int(i) => Ok(Value::Int(*i)),
            ExprKind::Float(f) => Ok(Value::Float(*f)),
            ExprKind::Str(s) => Ok(Value::Str(s.clone())),
            ExprKind::Bool(b) => Ok(Value::Bool(*b)),
            ExprKind::None => Ok(Value::None),
            ExprKind::Ellipsis => Ok(Value::Ellipsis),
            ExprKind::Name(name) => self.load(name, frame),
            ExprKind::List(items) => {
                let values = items
                    .iter()
                    .map(|e| self.eval(e, frame))
                    .collect::<Result<Vec<_>>>()?;
                convert::list_literal(self, values).map_err(|e| e.at(expr.span))
            }
            ExprKind::Imaginary(im) => Ok(Value::Complex(0.0, *im)),
            ExprKind::Lambda(decl) => self.make_closure(decl, frame),
            ExprKind::Unary(op, operand) => {
                let v = self.eval(operand, frame)?;
                host_ops::unary(*op, &v).map_err(|e| e.at(expr.span))
            }
            ExprKind::Compare { first, rest, .. } => self.eval_compare(first, rest, frame),
            ExprKind::Not(operand) => {
                let v = self.eval(operand, frame)?;
                Ok(Value::Bool(
                    !convert::condition(&v).map_err(|e| e.at(operand.span))?,
                ))
            }
            ExprKind::And(lhs, rhs) => {
                let l = self.eval(lhs, frame)?;
                if !convert::condition(&l).map_err(|e| e.at(lhs.span))? {
                    return Ok(l);
                }
                let r = self.eval(rhs, frame)?;
                convert::condition(&r).map_err(|e| e.at(rhs.span))?;
                Ok(r)
            }
            ExprKind::Or(lhs, rhs) => {
                let l = self.eval(lhs, frame)?;
                if convert::condition(&l).map_err(|e| e.at(lhs.span))? {
                    return Ok(l);
                }
                let r = self.eval(rhs, frame)?;
                convert::condition(&r).map_err(|e| e.at(rhs.span))?;
                Ok(r)
            }
            ExprKind::Binary { op, lhs, rhs } => {
                let mut l = self.eval(lhs, frame)?;
                let mut r = self.eval(rhs, frame)?;
                if let Some(v) = host_ops::fast_numeric(*op, &l, &r) {
                    return Ok(v);
                }
                let mut placed = false;
                if self.watches_work() && [&l, &r].iter().any(|v| matches!(v, Value::Array(_))) {
                    let operands = [
                        placement::Candidate {
                            value: &mut l,
                            name: name_of(lhs),
                        },
                        placement::Candidate {
                            value: &mut r,
                            name: name_of(rhs),
                        },
                    ];
                    placed = self
                        .place_operator(*op, operands, frame)
                        .map_err(|e| e.at(expr.span))?;
                }
                let result = host_ops::binary(self, *op, &l, &r).map_err(|e| e.at(expr.span))?;
                Ok(mark_placed(result, placed))
            }
            ExprKind::Call { callee, args } => self.eval_call(callee, args, frame, expr.span),
            ExprKind::Index { target, subscripts } => {
                let mut container = self.eval(target, frame)?;
                if !self.auto_placement() || !placement::counts_element_reads(&container) {
                    return self
                        .eval_index(container, subscripts, frame)
                        .map_err(|e| e.at(expr.span));
                }
                let value = self
                    .eval_index(container.clone(), subscripts, frame)
                    .map_err(|e| e.at(expr.span))?;
                if !matches!(value, Value::Array(_)) {
                    self.note_element_read(&mut container, name_of(target), frame)
                        .map_err(|e| e.at(expr.span))?;
                }
                Ok(value)
            }
            ExprKind::Attr { target, name } => {
                let v = self.eval(target, frame)?;
                convert::attribute(&v, name).map_err(|e| e.at(expr.span))
            }
        }
    }

    /// `a < b <= c`: Python's chain, each operand evaluated once, stopping at the first false
    /// link; a chain of one is an ordinary comparison (arrays allowed).
    pub(super) fn eval_compare(
        &mut self,
        first: &Expr,
        rest: &[(BinOp, Expr)],
        frame: &mut Frame,
    ) -> Result<Value> {
        let mut left = self.eval(first, frame)?;
        let mut left_span = first.span;
        for (k, (op, right_expr)) in rest.iter().enumerate() {
            let right = self.eval(right_expr, frame)?;
            let span = left_span.to(right_expr.span);
            let result = match host_ops::fast_numeric(*op, &left, &right) {
                Some(v) => v,
                None => host_ops::binary(self, *op, &left, &right).map_err(|e| e.at(span))?,
            };
            if k + 1 == rest.len() {
                return Ok(result);
            }
            if !convert::condition(&result).map_err(|e| e.at(span))? {
                return Ok(result);
            }
            left = right;
            left_span = right_expr.span;
        }
        Ok(left)
    }

    pub(super) fn eval_index(
        &mut self,
        container: Value,
        subscripts: &[Subscript],
        frame: &mut Frame,
    ) -> Result<Value> {
        match container {
            Value::Array(a) => {
                if let [Subscript::Index(e)] = subscripts {
                    let i = self.eval(e, frame)?;
                    if let (Value::Int(i), 1) = (&i, a.ndim()) {
                        let position = crate::base::layout::normalize_index(*i, a.shape()[0], 0)?;
                        if a.device() == Device::Gpu {
                            self.scalar_guard(Access::Read)?;
                        }
                        return Ok(Value::from_scalar(a.element(&[position])?));
                    }
                    let subs = [self
                        .subscript_value(i, a.device())
                        .map_err(|er| er.at(e.span))?];
                    return self.index_value(&a, &subs);
                }
                let subs = self.subscripts(subscripts, a.device(), frame)?;
                self.index_value(&a, &subs)
            }
            Value::Str(_) | Value::List(_) | Value::Tuple(_) | Value::Range { .. } => {
                let [Subscript::Index(e)] = subscripts else {
                    return Err(type_error(format!(
                        "{} takes one integer index",
                        container.a_kind()
                    )));
                };
                let i = self.eval(e, frame)?;
                let i = convert::index_int(&i).map_err(|er| er.at(e.span))?;
                host_ops::index_sequence(&container, i)
            }
            other => Err(type_error(format!("{} cannot be indexed", other.a_kind()))),
        }
    }

    pub(super) fn eval_call(
        &mut self,
        callee: &Expr,
        args: &[Arg],
        frame: &mut Frame,
        span: Span,
    ) -> Result<Value> {
        let (function, receiver) = match &callee.kind {
            ExprKind::Attr { target, name } => {
                let receiver = self.eval(target, frame)?;
                if let Value::Namespace(_) = receiver {
                    let member =
                        convert::attribute(&receiver, name).map_err(|e| e.at(callee.span))?;
                    (member, None)
                } else {
                    let function = self.lookup_function(name).ok_or_else(|| {
                        type_error(format!("{} has no method `{}`", receiver.a_kind(), name))
                            .at(callee.span)
                    })?;
                    (function, Some(receiver))
                }
            }
            _ => (self.eval(callee, frame)?, None),
        };
        // The variables the arguments came from, which only `device=auto` needs.
        let auto = self.watches_work();
        let mut names: Vec<Option<&Name>> = Vec::new();
        if let (true, Some(_), ExprKind::Attr { target, .. }) = (auto, &receiver, &callee.kind) {
            names.push(name_of(target));
        }
        let mut positional = Vec::with_capacity(args.len() + 1);
        positional.extend(receiver);
        let mut keywords = Vec::new();
        for arg in args {
            // A list literal passed straight to a function stays a host list: `zeros([2, 3])`
            // must not send its shape to the gpu.
            let value = match &arg.value.kind {
                ExprKind::List(items) => Value::List(Rc::new(
                    items
                        .iter()
                        .map(|e| self.eval(e, frame))
                        .collect::<Result<_>>()?,
                )),
                _ => self.eval(&arg.value, frame)?,
            };
            match &arg.name {
                Some(n) => keywords.push((n.clone(), value)),
                None => {
                    if auto {
                        names.push(name_of(&arg.value));
                    }
                    positional.push(value);
                }
            }
        }
        let Value::Builtin(b) = function else {
            return self
                .call(&function, positional, keywords)
                .map_err(|e| e.at(span));
        };
        self.call_placed(b, positional, keywords, &names, frame)
            .map_err(|e| e.at(span))
    }

    /// A built-in call, with its new array or its inputs placed under `device=auto`, and its
    /// result marked as the user's placement when it was (`device=`, `to()`).
    pub(super) fn call_placed(
        &mut self,
        b: &'static Builtin,
        mut positional: Vec<Value>,
        mut keywords: Vec<(Rc<str>, Value)>,
        names: &[Option<&Name>],
        frame: &mut Frame,
    ) -> Result<Value> {
        let asked = keywords.iter().any(|(k, _)| &**k == "device") || b.name == "to";
        if !self.watches_work() && !asked {
            return self.call(&Value::Builtin(b), positional, keywords);
        }
        if let Some(device) = self.place_new(b, &positional, &mut keywords) {
            let fixed = std::mem::replace(&mut self.default_device, device);
            let result = self.call(&Value::Builtin(b), positional, keywords);
            self.default_device = fixed;
            return result;
        }
        let mut placed = asked;
        if self.watches_work() && positional.iter().any(|v| matches!(v, Value::Array(_))) {
            let mut inputs: Vec<placement::Candidate> = positional
                .iter_mut()
                .zip(names.iter().copied().chain(std::iter::repeat(None)))
                .map(|(value, name)| placement::Candidate { value, name })
                .collect();
            placed |= self.place_call(b, &mut inputs, frame)?;
        }
        let result = self.call(&Value::Builtin(b), positional, keywords)?;
        Ok(mark_placed(result, placed))
    }

    pub(super) fn lookup_function(&self, name: &str) -> Option<Value> {
        let global = self
            .global_index
            .get(name)
            .and_then(|&i| self.globals[i as usize].clone());
        global.or_else(|| builtins::lookup_value(name))
    }

    pub fn call(
        &mut self,
        function: &Value,
        positional: Vec<Value>,
        keywords: Vec<(Rc<str>, Value)>,
    ) -> Result<Value> {
        match function {
            Value::Builtin(b) => {
                let args = builtins::bind(b, positional, keywords)?;
                (b.run)(self, args)
            }
            Value::Function(closure) => self.call_closure(closure, positional, keywords),
            Value::Kernel(k) => builtins::call_kernel(self, k, positional, keywords),
            Value::Fused(f) => builtins::call_fused(self, f, positional, keywords),
            Value::DType(d) if keywords.is_empty() => builtins::call_dtype(self, *d, positional),
            other => Err(type_error(format!("{} is not callable", other.a_kind()))),
        }
    }

    pub(super) fn call_closure(
        &mut self,
        closure: &Closure,
        positional: Vec<Value>,
        keywords: Vec<(Rc<str>, Value)>,
    ) -> Result<Value> {
        let decl = &closure.decl;
        let params = &decl.params;
        if positional.len() > params.len() {
            return Err(type_error(format!(
                "{}() takes {} arguments but {} were given",
                decl.name,
                params.len(),
                positional.len()
            )));
        }
        let mut values: Vec<Option<Value>> = positional.into_iter().map(Some).collect();
        values.resize(params.len(), None);
        for (name, value) in keywords {
            let i = params
                .iter()
                .position(|p| p.name.text == name)
                .ok_or_else(|| {
                    type_error(format!(
                        "{}() got an unexpected keyword argument `{}`",
                        decl.name, name
                    ))
                })?;
            if values[i].is_some() {
                return Err(type_error(format!(
                    "{}() got multiple values for argument `{}`",
                    decl.name, name
                )));
            }
            values[i] = Some(value);
        }
        let shape = decl.frame.get();
        let mut frame = Frame {
            locals: vec![None; shape.locals as usize],
            cells: (0..shape.cells)
                .map(|_| Rc::new(RefCell::new(None)))
                .collect(),
            free: closure.captured.clone(),
        };
        for (i, param) in params.iter().enumerate() {
            let value = values[i]
                .take()
                .or_else(|| closure.defaults[i].clone())
                .ok_or_else(|| {
                    type_error(format!(
                        "{}() missing required argument `{}`",
                        decl.name, param.name.text
                    ))
                })?;
            self.store(&param.name, value, &mut frame);
        }
        if self.depth >= MAX_CALL_DEPTH {
            return Err(Error::new(
                ErrorKind::Recursion,
                format!(
                    "maximum recursion depth ({MAX_CALL_DEPTH}) exceeded in {}()",
                    decl.name
                ),
            ));
        }
        self.depth += 1;
        let result = self.run_function_body(decl, &mut frame);
        self.depth -= 1;
        result
    }

    pub(super) fn run_function_body(&mut self, decl: &FnDecl, frame: &mut Frame) -> Result<Value> {
        let body = &decl.body;
        let (init, last) = match (decl.is_lambda, body.split_last()) {
            (true, Some((last, init))) => match &last.kind {
                StmtKind::Expr(e) => (init, Some(e)),
                _ => (&body[..], None),
            },
            _ => (&body[..], None),
        };
        for stmt in init {
            match self.exec(stmt, frame)? {
                Flow::Next => {}
                Flow::Return(v) => return Ok(v),
                _ => {
                    return Err(Error::new(
                        ErrorKind::Syntax,
                        "`break` or `continue` outside a loop",
                    )
                    .at(stmt.span))
                }
            }
        }
        match last {
            Some(e) => self.eval(e, frame),
            None => Ok(Value::None),
        }
    }

    pub fn builtin(&self, name: &str) -> Option<&'static Builtin> {
        builtins::find(name)
    }
}

/// The variable an expression reads, when it is just a name.
fn name_of(expr: &Expr) -> Option<&Name> {
    match &expr.kind {
        ExprKind::Name(name) => Some(name),
        _ => None,
    }
}

/// `value`, marked as placed by the user when `placed` (so that `device=auto` leaves it).
#[inline]
fn mark_placed(mut value: Value, placed: bool) -> Value {
    if !placed {
        return value;
    }
    if let Value::Array(a) = &mut value {
        if !a.placed_by_user() {
            Rc::make_mut(a).mark_placed_by_user();
        }
    }
    value
}

/// Which way a lone element of a gpu array travels.
#[derive(Clone, Copy)]
pub(super) enum Access {
    Read,
    Write,
}

/// True when `subs` name one position on every axis of `a`: one element, read or written alone.
pub(super) fn reads_one_element(a: &Array, subs: &[index::Subscript]) -> bool {
    use crate::base::layout::AxisIndex;
    subs.len() == a.ndim()
        && subs
            .iter()
            .all(|s| matches!(s, index::Subscript::Basic(AxisIndex::At(_))))
}
