//! Statements: blocks, loops, assignments and in-place updates, definitions, and the slots
//! names are stored in and loaded from.

use super::eval::{reads_one_element, Access};
use super::*;

impl Interpreter {
    pub(super) fn exec_block(&mut self, block: &Block, frame: &mut Frame) -> Result<Flow> {
        for stmt in block {
            match self.exec(stmt, frame)? {
                Flow::Next => {}
                other => return Ok(other),
            }
        }
        Ok(Flow::Next)
    }

    pub(super) fn exec(&mut self, stmt: &Stmt, frame: &mut Frame) -> Result<Flow> {
        if self.profiler.is_none() {
            return self.exec_statement(stmt, frame);
        }
        if let Some(p) = self.profiler.as_mut() {
            p.enter();
        }
        let result = self
            .exec_statement(stmt, frame)
            .and_then(|flow| crate::device::synchronize().map(|_| flow));
        let line = self.sources.line_of(stmt.span);
        if let Some(p) = self.profiler.as_mut() {
            p.exit(stmt.span.source, line);
        }
        result
    }

    pub(super) fn exec_statement(&mut self, stmt: &Stmt, frame: &mut Frame) -> Result<Flow> {
        self.statement = Some(stmt.span);
        crate::plan::set_position(position_of(stmt.span));
        match &stmt.kind {
            StmtKind::Expr(e) => {
                self.eval(e, frame)?;
            }
            StmtKind::Assign { target, op, value } => self
                .assign(target, *op, value, frame)
                .map_err(|e| e.at(stmt.span))?,
            StmtKind::Unpack { names, value } => {
                let v = self.eval(value, frame)?;
                let items = host_ops::unpack(&v, names.len()).map_err(|e| e.at(value.span))?;
                for (name, item) in names.iter().zip(items) {
                    self.store(name, item, frame);
                }
            }
            StmtKind::If {
                branches,
                otherwise,
            } => {
                for (cond, body) in branches {
                    if self.truth(cond, frame)? {
                        return self.exec_block(body, frame);
                    }
                }
                if let Some(body) = otherwise {
                    return self.exec_block(body, frame);
                }
            }
            StmtKind::While { cond, body } => {
                while self.truth(cond, frame)? {
                    self.check_interrupt().map_err(|e| e.at(stmt.span))?;
                    match self.exec_block(body, frame)? {
                        Flow::Break => break,
                        Flow::Return(v) => return Ok(Flow::Return(v)),
                        _ => {}
                    }
                }
            }
            StmtKind::For { var, iter, body } => {
                return self.exec_for(var, iter, body, frame, stmt.span)
            }
            StmtKind::FnDef { name, func } => {
                let closure = self.make_closure(func, frame)?;
                self.store(name, closure, frame);
            }
            StmtKind::Return(value) => {
                let v = match value {
                    Some(e) => self.eval(e, frame)?,
                    None => Value::None,
                };
                return Ok(Flow::Return(v));
            }
            StmtKind::Break => return Ok(Flow::Break),
            StmtKind::Continue => return Ok(Flow::Continue),
            StmtKind::Command { name, args } => {
                self.flush();
                if commands::run(self, name, args).map_err(|e| e.at(stmt.span))? == Request::Quit {
                    self.quit_requested = true;
                }
            }
        }
        Ok(Flow::Next)
    }

    pub(super) fn exec_for(
        &mut self,
        var: &Name,
        iter: &Expr,
        body: &Block,
        frame: &mut Frame,
        span: Span,
    ) -> Result<Flow> {
        let iterable = match &iter.kind {
            ExprKind::List(items) => Value::List(Rc::new(
                items
                    .iter()
                    .map(|e| self.eval(e, frame))
                    .collect::<Result<_>>()?,
            )),
            _ => self.eval(iter, frame)?,
        };
        let run_body =
            |this: &mut Interpreter, item: Value, frame: &mut Frame| -> Result<Option<Flow>> {
                this.check_interrupt().map_err(|e| e.at(span))?;
                this.store(var, item, frame);
                Ok(match this.exec_block(body, frame)? {
                    Flow::Break => Some(Flow::Next),
                    Flow::Return(v) => Some(Flow::Return(v)),
                    _ => None,
                })
            };
        match iterable {
            Value::Range { start, stop, step } => {
                let mut i = start;
                while (step > 0 && i < stop) || (step < 0 && i > stop) {
                    if let Some(flow) = run_body(self, Value::Int(i), frame)? {
                        return Ok(flow);
                    }
                    let Some(next) = i.checked_add(step) else {
                        break;
                    };
                    i = next;
                }
            }
            Value::List(items) | Value::Tuple(items) => {
                for item in items.iter() {
                    if let Some(flow) = run_body(self, item.clone(), frame)? {
                        return Ok(flow);
                    }
                }
            }
            Value::Str(s) => {
                for c in s.chars() {
                    if let Some(flow) = run_body(self, Value::Str(c.to_string().into()), frame)? {
                        return Ok(flow);
                    }
                }
            }
            Value::Array(a) => {
                if a.ndim() == 0 {
                    return Err(type_error("iteration over a 0-d array").at(iter.span));
                }
                for i in 0..a.shape()[0] {
                    let item = self
                        .index_value(
                            &a,
                            &[index::Subscript::Basic(crate::base::layout::AxisIndex::At(
                                i as i64,
                            ))],
                        )
                        .map_err(|e| e.at(iter.span))?;
                    if let Some(flow) = run_body(self, item, frame)? {
                        return Ok(flow);
                    }
                }
            }
            other => {
                return Err(
                    type_error(format!("{} cannot be iterated", other.a_kind())).at(iter.span)
                );
            }
        }
        Ok(Flow::Next)
    }

    pub(super) fn truth(&mut self, cond: &Expr, frame: &mut Frame) -> Result<bool> {
        let v = self.eval(cond, frame)?;
        convert::condition(&v).map_err(|e| e.at(cond.span))
    }

    pub(super) fn make_closure(&mut self, decl: &Rc<FnDecl>, frame: &mut Frame) -> Result<Value> {
        let defaults = decl
            .params
            .iter()
            .map(|p| p.default.as_ref().map(|e| self.eval(e, frame)).transpose())
            .collect::<Result<Vec<_>>>()?;
        let captured = decl
            .captures
            .borrow()
            .iter()
            .map(|c| match *c {
                Capture::EnclosingCell(i) => frame.cells[i as usize].clone(),
                Capture::EnclosingFree(i) => frame.free[i as usize].clone(),
            })
            .collect();
        let closure = Rc::new(Closure {
            decl: decl.clone(),
            defaults,
            captured,
        });
        self.closures.track(&closure);
        Ok(Value::Function(closure))
    }

    pub(super) fn store(&mut self, name: &Name, value: Value, frame: &mut Frame) {
        match name.slot.get() {
            Slot::Global(i) => self.globals[i as usize] = Some(value),
            Slot::Local(i) => frame.locals[i as usize] = Some(value),
            Slot::Cell(i) => *frame.cells[i as usize].borrow_mut() = Some(value),
            Slot::Free(i) => *frame.free[i as usize].borrow_mut() = Some(value),
            Slot::Unresolved => unreachable!("every name is resolved before it runs"),
        }
    }

    pub(super) fn load(&self, name: &Name, frame: &Frame) -> Result<Value> {
        let found = match name.slot.get() {
            Slot::Global(i) => {
                let i = i as usize;
                match &self.globals[i] {
                    Some(v) if !self.gpu_losses.any() => return Ok(v.clone()),
                    Some(v) => Some(v.clone()),
                    None => self.builtin_for_global[i].clone(),
                }
            }
            Slot::Local(i) => frame.locals[i as usize].clone(),
            Slot::Cell(i) => frame.cells[i as usize].borrow().clone(),
            Slot::Free(i) => frame.free[i as usize].borrow().clone(),
            Slot::Unresolved => unreachable!("every name is resolved before it runs"),
        };
        if let (Some(value), true) = (&found, self.gpu_losses.any()) {
            self.gpu_losses
                .check(&name.text, value, name.span, &self.sources)?;
        }
        found.ok_or_else(|| {
            let message = match name.slot.get() {
                Slot::Global(_) => format!("name `{}` is not defined", name.text),
                _ => format!(
                    "local variable `{}` is used before it is assigned",
                    name.text
                ),
            };
            name_error(message).at(name.span)
        })
    }

    pub(super) fn assign(
        &mut self,
        target: &Target,
        op: Option<BinOp>,
        value: &Expr,
        frame: &mut Frame,
    ) -> Result<()> {
        let rhs = self.eval(value, frame)?;
        match (&target.index, op) {
            (None, None) => {
                self.store(&target.name, rhs, frame);
                Ok(())
            }
            (None, Some(op)) => {
                if let Slot::Global(i) = target.name.slot.get() {
                    if let Some(current) = &mut self.globals[i as usize] {
                        if let Some(v) = host_ops::fast_numeric(op, current, &rhs) {
                            *current = v;
                            return Ok(());
                        }
                    }
                }
                let mut current = self.load(&target.name, frame)?;
                if let Value::Array(_) = &current {
                    let mut rhs = rhs;
                    self.place_update(&mut current, &mut rhs, &target.name, frame)
                        .map_err(|e| e.at(value.span))?;
                    let Value::Array(a) = &current else {
                        unreachable!("placing moves an array, it stays one")
                    };
                    return self.in_place(op, a, &rhs).map_err(|e| e.at(value.span));
                }
                let result =
                    host_ops::binary(self, op, &current, &rhs).map_err(|e| e.at(value.span))?;
                self.store(&target.name, result, frame);
                Ok(())
            }
            (Some(subscripts), op) => {
                let mut container = self.load(&target.name, frame)?;
                for step in &target.path {
                    container = match step {
                        TargetStep::Index(subs) => self.eval_index(container, subs, frame)?,
                        TargetStep::Attr(name) => convert::attribute(&container, name)?,
                    };
                }
                let Value::Array(a) = container else {
                    return Err(type_error(format!(
                        "{} does not support item assignment",
                        container.a_kind()
                    ))
                    .at(target.name.span));
                };
                let subs = self.subscripts(subscripts, a.device(), frame)?;
                if a.device() == Device::Gpu && reads_one_element(&a, &subs) {
                    // `x[0] = v` sends one element; `x[0] += v` first reads it.
                    let access = if op.is_some() {
                        Access::Read
                    } else {
                        Access::Write
                    };
                    self.scalar_guard(access)?;
                }
                let new_value = match op {
                    None => rhs,
                    Some(op) => {
                        if let Some(view) = index::basic_view(&a, &subs)? {
                            // `x[1:] *= 2.5`: in place on the view, with NumPy's casting rule.
                            if view.ndim() > 0 || !reads_one_element(&a, &subs) {
                                return self
                                    .in_place(op, &view, &rhs)
                                    .map_err(|e| e.at(target.span));
                            }
                        }
                        let current = self.index_value(&a, &subs)?;
                        let result = host_ops::binary(self, op, &current, &rhs)?;
                        check_in_place_cast(op, &result, a.dtype())?;
                        result
                    }
                };
                let new_value = self.follow(a.device(), new_value)?;
                let operand = convert::operand(self, &new_value)?;
                index::set(&a, &subs, operand.as_operand()).map_err(|e| e.at(target.span))
            }
        }
    }

    /// `a op= rhs` on an array, in place.
    pub(super) fn in_place(&mut self, op: BinOp, a: &Array, rhs: &Value) -> Result<()> {
        if op == BinOp::MatMul {
            return Err(type_error(
                "in-place matrix product `@=` is not supported; write x = x @ y",
            ));
        }
        let rhs = self.follow(a.device(), rhs.clone())?;
        let operand = convert::operand(self, &rhs)?;
        ops::apply_in_place(
            table::by_symbol(op.symbol(), true),
            a,
            &[operand.as_operand()],
        )
    }
}

/// The error NumPy gives when `x[idx] op= v` through an index array would need an unsafe cast:
/// the selection's `op=` is in place on its copy, so the result must cast to the array's dtype
/// by `same_kind`. (One element, `x[0] op= v`, is read, computed and stored, as in NumPy.)
fn check_in_place_cast(op: BinOp, result: &Value, target: crate::base::DType) -> Result<()> {
    match result {
        Value::Array(r) => {
            ops::check_same_kind(table::by_symbol(op.symbol(), true), r.dtype(), target)
        }
        _ => Ok(()),
    }
}
